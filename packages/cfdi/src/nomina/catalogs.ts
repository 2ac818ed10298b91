/**
 * Nómina 1.2 catalogs (catNomina), keys as in shared/sat/catalogs/nomina_*.tsv (test/nomina-catalogs.test.ts
 * checks they still match). validFrom lists only keys introduced after 2024; validUntil every key that expired.
 */

/** A catalog's keys, written as text separated by spaces and line breaks. */
const codes = (text: string): readonly string[] => text.trim().split(/\s+/);

export interface NominaCatalog {
  keys: readonly string[];
  validFrom?: Readonly<Record<string, string>>;
  validUntil?: Readonly<Record<string, string>>;
}

/** c_TipoPercepcion */
export const TIPOS_PERCEPCION: NominaCatalog = {
  keys: codes(`
    001 002 003 004 005 006 009 010 011 012 013 014 015 019 020 021 022 023 024 025
    026 027 028 029 030 031 032 033 034 035 036 037 038 039 044 045 046 047 048 049
    050 051 052 053 054 055 056 057
  `),
  validFrom: { '054': '2026-01-01', '055': '2026-01-01', '056': '2025-12-17', '057': '2026-06-12' },
};

/** c_TipoDeduccion */
export const TIPOS_DEDUCCION: NominaCatalog = {
  keys: codes(`
    001 002 003 004 005 006 007 008 009 010 011 012 013 014 015 016 017 018 019 020
    021 022 023 024 025 026 027 028 029 030 031 032 033 034 035 036 037 038 039 040
    041 042 043 044 045 046 047 048 049 050 051 052 053 054 055 056 057 058 059 060
    061 062 063 064 065 066 067 068 069 070 071 072 073 074 075 076 077 078 079 080
    081 082 083 084 085 086 087 088 089 090 091 092 093 094 095 096 097 098 099 100
    101 102 103 104 105 106 107 108 109 110 111 112 113 114 115
  `),
  validFrom: {
    '108': '2026-01-01',
    '109': '2026-01-01',
    '110': '2026-01-01',
    '111': '2026-01-01',
    '112': '2025-12-17',
    '113': '2025-12-17',
    '114': '2026-06-12',
    '115': '2026-06-12',
  },
  validUntil: { '063': '2026-03-01', '072': '2018-10-14' },
};

/** c_TipoOtroPago */
export const TIPOS_OTRO_PAGO: NominaCatalog = {
  keys: ['001', '002', '003', '004', '005', '006', '007', '008', '009', '999'],
};

/** c_TipoContrato */
export const TIPOS_CONTRATO: NominaCatalog = {
  keys: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '99'],
};

/** c_TipoRegimen */
export const TIPOS_REGIMEN: NominaCatalog = {
  keys: ['02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '99'],
};

/** c_TipoJornada */
export const TIPOS_JORNADA: NominaCatalog = {
  keys: ['01', '02', '03', '04', '05', '06', '07', '08', '99'],
};

/** c_PeriodicidadPago */
export const PERIODICIDADES_PAGO: NominaCatalog = {
  keys: ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '99'],
};

/** c_RiesgoPuesto */
export const RIESGOS_PUESTO: NominaCatalog = {
  keys: ['1', '2', '3', '4', '5', '99'],
};

/** c_TipoIncapacidad */
export const TIPOS_INCAPACIDAD: NominaCatalog = {
  keys: ['01', '02', '03', '04'],
};

/** c_TipoHoras */
export const TIPOS_HORAS: NominaCatalog = {
  keys: ['01', '02', '03'],
};

/** c_Banco */
export const BANCOS: NominaCatalog = {
  keys: codes(`
    002 006 009 012 014 019 021 030 032 036 037 042 044 058 059 060 062 072 102 103
    106 108 110 112 113 116 124 126 127 128 129 130 131 132 133 134 135 136 137 138
    139 140 141 143 145 147 148 149 150 151 152 153 154 155 156 157 158 159 160 166
    168 600 601 602 605 606 607 608 610 614 615 616 617 618 619 620 621 622 623 626
    627 628 629 630 631 632 633 634 636 637 638 640 642 646 647 648 649 651 652 653
    655 656 659 670 901 902
  `),
  validUntil: { '116': '2017-08-13', '134': '2017-08-13', '032': '2017-08-13' },
};

/** c_Estado, Mexican states only (NOM182) */
export const ESTADOS_MEX: NominaCatalog = {
  keys: codes(`
    AGU BCN BCS CAM CHH CHP CMX COA COL DIF DUR GRO GUA HID JAL MEX MIC MOR NAY NLE
    OAX PUE QUE ROO SIN SLP SON TAB TAM TLA VER YUC ZAC
  `),
  validUntil: { DIF: '2023-06-30' },
};

/** Whether a key is in the catalog and in force on the date (YYYY-MM-DD). */
export function inCatalog(catalog: NominaCatalog, key: string, date: string): boolean {
  if (!catalog.keys.includes(key)) return false;
  const from = catalog.validFrom?.[key];
  const until = catalog.validUntil?.[key];
  return (from === undefined || date >= from) && (until === undefined || date <= until);
}

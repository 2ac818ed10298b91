/**
 * The small Carta Porte 3.1 catalogs, as catCartaPorte.xsd enumerates them (SAT, version of the 3.1 schema). The
 * large ones (c_ClaveProdServCP 48,757 keys, c_MaterialPeligroso 4,686) come through CatalogLookup.hasCartaPorteKey
 * (imported from catCartaPorte.xsd by the catalogs workspace); UnidadPeso is always KGM, so c_ClaveUnidadPeso is not
 * needed. See docs/decisions.md (2026-11-28, Carta Porte catalogs).
 */
const codes = (text: string): readonly string[] => text.trim().split(/\s+/);

/** c_TipoPermiso keys of motor transport (TPAF01…TPAF20, TPXX00 for own-goods transport without a permit). */
export const TIPOS_PERMISO_AUTOTRANSPORTE = codes(`
  TPAF01 TPAF02 TPAF03 TPAF04 TPAF05 TPAF06 TPAF07 TPAF08 TPAF09 TPAF10 TPAF11 TPAF12 TPAF13 TPAF14 TPAF15 TPAF16
  TPAF17 TPAF18 TPAF19 TPAF20 TPXX00
`);

/** c_ConfigAutotransporte. */
export const CONFIG_AUTOTRANSPORTE = codes(`
  C2 C3 C2R2 C3R2 C2R3 C3R3 T2S1 T2S2 T2S3 T3S1 T3S2 T3S3 T2S1R2 T2S2R2 T2S1R3 T3S1R2 T3S1R3 T3S2R2 T3S2R3 T3S2R4
  T2S2S2 T3S2S2 T3S3S2 OTROEV OTROEGP OTROSG VL OTROEVGP GPLUTA GPLUTB GPLUTC GPLUTD GPLATA GPLATB GPLATC GPLATD
`);

/** c_SubTipoRem. */
export const SUBTIPOS_REMOLQUE = codes(`
  CTR001 CTR002 CTR003 CTR004 CTR005 CTR006 CTR007 CTR008 CTR009 CTR010 CTR011 CTR012 CTR013 CTR014 CTR015 CTR016
  CTR017 CTR018 CTR019 CTR020 CTR021 CTR022 CTR023 CTR024 CTR025 CTR026 CTR027 CTR028 CTR029 CTR030 CTR031 CTR032
`);

/** c_TipoEmbalaje. */
export const TIPOS_EMBALAJE = codes(`
  1A1 1A2 1B1 1B2 1D 1G 1H1 1H2 1N1 1N2 3A1 3A2 3B1 3B2 3H1 3H2 4A 4B 4C1 4C2 4D 4F 4G 4H1 4H2 5H1 5H2 5H3 5H4 5L1
  5L2 5L3 5M1 5M2 6HA1 6HA2 6HB1 6HB2 6HC 6HD1 6HD2 6HG1 6HG2 6HH1 6HH2 6PA1 6PA2 6PB1 6PB2 6PC 6PD1 6PD2 6PG1 6PG2
  6PH1 6PH2 7H1 7L1 Z01
`);

/** c_FiguraTransporte: 01 operador, 02 propietario, 03 arrendador, 04 notificado, 05 integrante de coordinados. */
export const FIGURAS_TRANSPORTE = codes('01 02 03 04 05');

/** c_ParteTransporte. */
export const PARTES_TRANSPORTE = codes('PT01 PT02 PT03 PT04 PT05 PT06 PT07 PT08 PT09 PT10 PT11 PT12');

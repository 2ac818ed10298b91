/** Keys of the Retenciones catalogs (catRetenciones.xsd, c_Impuesto of catCFDI.xsd) the rules check. */
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, '0'));

/** c_CveRetenc 01–28. */
export const CVE_RETENC: readonly string[] = range(1, 28);
/** 25 is "Otro tipo de retenciones": DescRetenc says which. */
export const CVE_RETENC_OTRO = '25';
/** c_Ejercicio as published in catRetenciones.xsd. */
export const EJERCICIO_MIN = 2019;
export const EJERCICIO_MAX = 2027;
/** c_TipoPagoRet 01–04. */
export const TIPO_PAGO_RET: readonly string[] = range(1, 4);
/** c_Impuesto: ISR, IVA, IEPS. */
export const IMPUESTO_RET: readonly string[] = ['001', '002', '003'];
/** c_TipoRelacion accepted for a substituting certificate (04 Sustitución de los CFDI previos). */
export const TIPO_RELACION: readonly string[] = ['01', '02', '03', '04', '05', '06', '07'];

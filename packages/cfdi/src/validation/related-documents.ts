import { isString, type Issues } from './issues';

/** A CFDI's UUID (the TFD's folio fiscal): 8-4-4-4-12 hexadecimal characters, either case. */
export const UUID_PATTERN = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/**
 * c_TipoRelacion keys an income (I) CFDI may carry (cfdi40.md §1.4): 05 relates merchandise already invoiced to a
 * traslado (T) document, so it never belongs on an I.
 */
const INCOME_TIPOS_RELACION: Record<string, string> = {
  '01': 'nota de crédito de los documentos relacionados',
  '02': 'nota de débito de los documentos relacionados',
  '03': 'devolución de mercancía sobre facturas o traslados previos',
  '04': 'sustitución de los CFDI previos',
  '06': 'factura generada por los traslados previos',
  '07': 'CFDI por aplicación de anticipo',
};
const MAX_RELATED_UUIDS = 100;

/**
 * relatedDocuments: [{tipoRelacion, uuids}], one entry per relation type (one CfdiRelacionados node each), each type
 * one of `allowed` (the income keys by default; payroll allows 04 only).
 */
export function checkRelatedDocuments(
  issues: Issues,
  related: unknown,
  allowed: Record<string, string> = INCOME_TIPOS_RELACION,
): void {
  if (related === undefined) return;
  const keys = Object.keys(allowed);
  if (!Array.isArray(related) || related.length < 1 || related.length > keys.length) {
    return issues.add(
      '/relatedDocuments',
      `must be an array of 1 to ${keys.length} {tipoRelacion, uuids} entries, one per relation type`,
    );
  }
  const seen = new Set<string>();
  related.forEach((entry: unknown, i) => {
    const base = `/relatedDocuments/${i}`;
    if (typeof entry !== 'object' || entry === null)
      return issues.add(base, 'must be an object {tipoRelacion, uuids}');
    const { tipoRelacion, uuids } = entry as { tipoRelacion?: unknown; uuids?: unknown };
    if (!isString(tipoRelacion) || !allowed[tipoRelacion]) {
      issues.add(
        `${base}/tipoRelacion`,
        `must be a c_TipoRelacion key ${allowed === INCOME_TIPOS_RELACION ? 'an income' : 'this'} CFDI may carry: ${keys.map((k) => `${k} ${allowed[k]}`).join(', ')}`,
      );
    } else if (seen.has(tipoRelacion)) {
      issues.add(
        `${base}/tipoRelacion`,
        `${tipoRelacion} appears twice: list every UUID of one relation type in one entry`,
      );
    } else seen.add(tipoRelacion);
    if (!Array.isArray(uuids) || uuids.length < 1 || uuids.length > MAX_RELATED_UUIDS) {
      return issues.add(`${base}/uuids`, `must be an array of 1 to ${MAX_RELATED_UUIDS} CFDI UUIDs`);
    }
    const distinct = new Set<string>();
    uuids.forEach((uuid: unknown, j) => {
      if (!isString(uuid) || !UUID_PATTERN.test(uuid))
        issues.add(`${base}/uuids/${j}`, 'must be a CFDI UUID: 8-4-4-4-12 hexadecimal characters');
      else if (distinct.has(uuid.toUpperCase())) issues.add(`${base}/uuids/${j}`, 'is listed twice');
      else distinct.add(uuid.toUpperCase());
    });
  });
}

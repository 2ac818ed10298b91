export const VERIFICATION_BASE = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx';

export interface VerificationParams {
  uuid: string;
  rfcEmisor: string;
  rfcReceptor: string;
  total: string;
  /** Comprobante@Sello; only its last 8 characters are used. */
  sello: string;
}

/**
 * tt: at most 18 integer and 6 decimal digits, non-significant zeros removed but one digit
 * kept on each side of the point (31920.00 → 31920.0, 1 → 1.0, 0.99 → 0.99).
 */
export function formatTotalForQr(total: string): string {
  const [intRaw = '0', fracRaw = ''] = total.trim().split('.');
  const int = intRaw.replace(/^0+(?=\d)/, '');
  const frac = fracRaw.slice(0, 6).replace(/0+$/, '');
  return `${int}.${frac === '' ? '0' : frac}`;
}

/** RFCs go XML-escaped, not percent-encoded (H&E951128469 → H&amp;E951128469), per Anexo 20. */
function xmlEscape(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

export function verificationUrl(p: VerificationParams): string {
  return `${VERIFICATION_BASE}?id=${p.uuid.toUpperCase()}&re=${xmlEscape(p.rfcEmisor)}&rr=${xmlEscape(p.rfcReceptor)}&tt=${formatTotalForQr(p.total)}&fe=${p.sello.slice(-8)}`;
}

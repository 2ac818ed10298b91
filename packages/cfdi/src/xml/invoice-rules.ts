import { checkInformacionGlobal } from '../validation/global-invoice';
import { Issues } from '../validation/issues';
import type { InvoiceInput } from '../types';
import { PUBLICO_EN_GENERAL } from './publico-en-general';

/**
 * Document-level rules the builder enforces itself (CFDI40105, CFDI40130–40136), so a caller
 * that skipped validateInvoiceRequest still cannot produce a CFDI the SAT would reject for them.
 */
export function assertInvoiceRules(input: InvoiceInput): void {
  const metodo = input.metodoPago ?? 'PUE';
  const moneda = input.moneda ?? 'MXN';
  if (moneda !== 'MXN' && input.tipoCambio === undefined)
    throw new RangeError(`tipoCambio is required with moneda ${moneda} (CFDI40115)`);
  if (moneda === 'MXN' && input.tipoCambio !== undefined && input.tipoCambio !== '1')
    throw new RangeError('tipoCambio must be absent or 1 with moneda MXN (CFDI40114)');
  if ((input.exportacion === '02') !== (input.comercioExterior !== undefined))
    throw new RangeError(
      'exportacion 02 and the Comercio Exterior complement go together (CFDI40122/CFDI40222)',
    );
  if (input.cartaPorte && input.comercioExterior)
    throw new RangeError('cartaPorte with comercioExterior (international transport) is not supported');
  if (metodo === 'PUE' && input.formaPago === '99')
    throw new RangeError('formaPago 99 (por definir) cannot be used with metodoPago PUE');
  if (metodo === 'PPD' && input.formaPago !== '99')
    throw new RangeError('metodoPago PPD requires formaPago 99 (CFDI40105)');
  if (input.kind === 'global') {
    if (!input.informacionGlobal) throw new RangeError('informacionGlobal is required for a global invoice');
    if (metodo !== 'PUE') throw new RangeError('a global invoice is PUE');
    const issues = new Issues();
    checkInformacionGlobal(issues, input.informacionGlobal, input.issuer.regimenFiscal, undefined);
    if (issues.list[0]) throw new RangeError(`${issues.list[0].path.slice(1)} ${issues.list[0].message}`);
    return;
  }
  if (!input.receiver) throw new RangeError('receiver is required');
  if (
    input.receiver.rfc === PUBLICO_EN_GENERAL.rfc &&
    input.receiver.name.trim() === PUBLICO_EN_GENERAL.name
  ) {
    throw new RangeError(
      'an invoice to XAXX010101000 PUBLICO EN GENERAL is a global invoice: use kind "global" with informacionGlobal (CFDI40130)',
    );
  }
  if (input.informacionGlobal) throw new RangeError('informacionGlobal is only allowed with kind "global"');
}

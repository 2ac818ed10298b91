import { computeNomina, validateNominaRequest, type NominaInput, type NominaRequest } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from './document-row';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';
import { storeNewDocument } from './store-new-document';

/** POST /v1/nominas body after schema validation: the employer (merchant), the display folio and the receipt. */
export interface NominaCreate extends NominaRequest {
  merchantId: string;
  folio?: string;
}

/**
 * Validates a payroll receipt against the SAT's Nómina rules, assigns its folio, reserves one timbre and stores it
 * as `stamping`, in one transaction, exactly as invoices are: a 400 or 402 leaves no trace. `pathPrefix` places the
 * field paths of a receipt inside a batch (`/nominas/3`).
 */
export async function createNominaDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  body: NominaCreate,
  idempotencyKey?: string,
  pathPrefix = '',
): Promise<DocumentRow> {
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  const { merchantId: _merchantId, folio: folioText, ...sent } = body;
  // The merchant's registro patronal covers its subordinate employees (contract types 01-08) that do not send one.
  const subordinate = sent.employee.tipoContrato >= '01' && sent.employee.tipoContrato <= '08';
  const registroPatronal = sent.registroPatronal ?? (subordinate ? merchant.registroPatronal ?? undefined : undefined);
  const request = { ...sent, ...(registroPatronal ? { registroPatronal } : {}) };
  const issues = validateNominaRequest(request, { issuer: merchant, now }).map((i) => ({ path: `${pathPrefix}${i.path}`, message: i.message }));
  if (issues.length) throw new ValidationError(`The payroll receipt is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);

  const input: NominaInput = {
    ...request,
    issuer: { rfc: merchant.rfc, legalName: merchant.legalName, regimenFiscal: merchant.regimenFiscal, zip: merchant.zip },
    serie: merchant.serie,
    ...(folioText ? { folioText } : {}),
  };
  const computed = computeNomina(input);
  const e = input.employee;
  return em.transactional((tx) =>
    storeNewDocument(tx, deps.config, scope, { type: 'nomina', merchant, idempotencyKey }, (_id, folio) => ({
      folioText: folioText ?? null, metodoPago: 'PUE', usoCfdi: 'CN01',
      receiver: { rfc: e.rfc, name: e.name, zip: e.zip, regimenFiscal: '605' },
      subtotal: computed.subTotal, discount: computed.descuento ?? '0', total: computed.total,
      fechaPago: input.period.fechaPago,
      input: { ...input, folio },
    })));
}

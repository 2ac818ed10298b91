import {
  computeNomina,
  validateNominaRequest,
  type NominaInput,
  type NominaRequest,
  type RelatedDocuments,
} from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from './document-row';
import { selectDocumentsByUuids } from './repository';
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
  const registroPatronal =
    sent.registroPatronal ?? (subordinate ? (merchant.registroPatronal ?? undefined) : undefined);
  const request = { ...sent, ...(registroPatronal ? { registroPatronal } : {}) };
  const issues = validateNominaRequest(request, { issuer: merchant, now }).map((i) => ({
    path: `${pathPrefix}${i.path}`,
    message: i.message,
  }));
  if (issues.length)
    throw new ValidationError(
      `The payroll receipt is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );

  const relatedDocuments = await checkReplacedNominas(
    em,
    scope,
    body.merchantId,
    sent.relatedDocuments,
    pathPrefix,
  );
  const input: NominaInput = {
    ...request,
    ...(relatedDocuments ? { relatedDocuments } : {}),
    issuer: {
      rfc: merchant.rfc,
      legalName: merchant.legalName,
      regimenFiscal: merchant.regimenFiscal,
      zip: merchant.zip,
    },
    serie: merchant.serie,
    ...(folioText ? { folioText } : {}),
  };
  const computed = computeNomina(input);
  const e = input.employee;
  return em.transactional((tx) =>
    storeNewDocument(tx, deps.config, scope, { type: 'nomina', merchant, idempotencyKey }, (_id, folio) => ({
      folioText: folioText ?? null,
      metodoPago: 'PUE',
      usoCfdi: 'CN01',
      receiver: { rfc: e.rfc, name: e.name, zip: e.zip, regimenFiscal: '605' },
      subtotal: computed.subTotal,
      discount: computed.descuento ?? '0',
      total: computed.total,
      fechaPago: input.period.fechaPago,
      input: { ...input, folio },
    })),
  );
}

/**
 * A payroll receipt replaces (TipoRelacion 04) only payroll receipts (cfdi40.md §1.4): each UUID must be a stamped
 * payroll receipt of this account, mode and employer, the one the cancellation with motive 01 will then name. A UUID
 * this service does not hold is refused too (docs/decisions.md, payroll substitution). UUIDs are written uppercase.
 */
async function checkReplacedNominas(
  em: EntityManager,
  scope: Scope,
  merchantId: string,
  related: RelatedDocuments[] | undefined,
  pathPrefix: string,
): Promise<RelatedDocuments[] | undefined> {
  if (!related) return undefined;
  const upper = related.map((r) => ({
    tipoRelacion: r.tipoRelacion,
    uuids: r.uuids.map((u) => u.toUpperCase()),
  }));
  const uuids = upper.flatMap((r) => r.uuids);
  const rows = await selectDocumentsByUuids(em, scope, uuids);
  const errors: Array<{ path: string; message: string }> = [];
  upper.forEach((r, i) =>
    r.uuids.forEach((uuid, j) => {
      const row = rows.find((d) => d.uuid === uuid);
      const problem = !row
        ? `${uuid} is not a payroll receipt of this account and mode: a payroll receipt replaces one this service stamped`
        : row.type !== 'nomina'
          ? `${uuid} is ${row.id}, not a payroll receipt: a payroll receipt replaces only payroll receipts`
          : row.merchant_id !== merchantId
            ? `${uuid} was stamped by ${row.merchant_id}: the replacement must come from the same employer`
            : row.status !== 'stamped'
              ? `${uuid} (${row.id}) is ${row.status}: only a stamped payroll receipt in force is replaced`
              : undefined;
      if (problem) errors.push({ path: `${pathPrefix}/relatedDocuments/${i}/uuids/${j}`, message: problem });
    }),
  );
  if (errors.length)
    throw new ValidationError(
      `The payroll receipt is invalid: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
      errors,
    );
  return upper;
}

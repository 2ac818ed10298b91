import {
  formatFecha,
  retentionTotals,
  validateRetentionRequest,
  type RetentionInput,
  type RetentionRequest,
} from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from './document-row';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';
import { storeNewDocument } from './store-new-document';

/** POST /v1/retentions body after schema validation: the withholding merchant and the certificate. */
export interface RetentionCreate extends RetentionRequest {
  merchantId: string;
}

/**
 * Withholding certificates are numbered in a series of their own: a certificate has no Serie/Folio (only the
 * optional FolioInt), and taking the merchant's invoice series would leave gaps in its invoices' folios.
 */
export const RETENTION_SERIE = 'RET';

/**
 * Validates a withholding certificate against the Retenciones 2.0 rules, numbers it, reserves one timbre and stores
 * it as `stamping`, in one transaction, exactly as invoices are: a 400 or 402 leaves no trace. FolioInt is the
 * request's, else the certificate's folio in its series.
 */
export async function createRetentionDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  body: RetentionCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  const { merchantId: _merchantId, ...request } = body;
  const issues = validateRetentionRequest(request, {
    currentYear: Number(formatFecha(now).slice(0, 4)),
    issuerRfc: merchant.rfc,
  });
  if (issues.length)
    throw new ValidationError(
      `The withholding certificate is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );
  // The stated sums were checked equal to the derived ones; the engine writes the derived ones.
  const { montoTotOperacion: _op, montoTotRet: _ret, ...totals } = request.totals as Record<string, unknown>;
  const base = {
    ...request,
    totals,
    issuer: {
      rfc: merchant.rfc,
      legalName: merchant.legalName,
      regimenFiscal: merchant.regimenFiscal,
      zip: merchant.zip,
    },
  } as unknown as RetentionInput;
  const computed = retentionTotals(base);
  const r = base.receiver;
  return em.transactional((tx) =>
    storeNewDocument(
      tx,
      deps.config,
      scope,
      { type: 'retention', merchant: { id: merchant.id, serie: RETENTION_SERIE }, idempotencyKey },
      (_id, folio) => ({
        folioText: base.folioInt ?? null,
        receiver: {
          nacionalidad: r.nacionalidad,
          rfc: r.nacionalidad === 'Nacional' ? r.rfc : null,
          name: r.name,
          zip: r.nacionalidad === 'Nacional' ? r.zip : null,
        },
        // The operation is what the certificate is about; its total is what was withheld (as the PAC records it).
        subtotal: computed.montoTotOperacion,
        discount: '0',
        total: computed.montoTotRet,
        tipoRelacion: base.related?.tipoRelacion ?? null,
        relatedUuid: base.related?.uuid.toUpperCase() ?? null,
        input: { ...base, folioInt: base.folioInt ?? String(folio) },
      }),
    ),
  );
}

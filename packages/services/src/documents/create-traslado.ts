import { randomUUID } from 'node:crypto';
import { checkTrasladoRequest, type TrasladoInput, type TrasladoRequest } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from './document-row';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';
import { storeNewDocument } from './store-new-document';

/** POST /v1/traslados body after schema validation: the merchant that moves its goods, the goods, the trip. */
export interface TrasladoCreate extends TrasladoRequest {
  merchantId: string;
  folio?: string;
  items: Array<Record<string, unknown>>;
  cartaPorte?: Record<string, unknown>;
}

/**
 * Traslados are numbered in a series of their own (`TR`): they move goods and carry no amount, and taking the
 * merchant's invoice series would leave gaps in its invoices' folios.
 */
export const TRASLADO_SERIE = 'TR';

/**
 * Validates a traslado (T) of the merchant's own goods and its Carta Porte, numbers it in the TR series, reserves one
 * timbre and stores it as `stamping`, in one transaction, as invoices are: a 400 or 402 leaves no trace. The engine's
 * result is stored as the document's input, IdCCP included (generated here once when absent), so the stamp workflow
 * and every retry of its activity rebuild the same XML.
 */
export async function createTrasladoDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  body: TrasladoCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  await deps.catalogs.index();
  const { merchantId: _merchantId, ...request } = body;
  const issuer = {
    rfc: merchant.rfc,
    legalName: merchant.legalName,
    regimenFiscal: merchant.regimenFiscal,
    zip: merchant.zip,
  };
  const { issues, input } = checkTrasladoRequest(request, deps.catalogs.lookup, {
    issuer,
    newUuid: randomUUID,
  });
  if (!input)
    throw new ValidationError(
      `The traslado is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );
  const stored: TrasladoInput = { ...input, serie: TRASLADO_SERIE };
  return em.transactional((tx) =>
    storeNewDocument(
      tx,
      deps.config,
      scope,
      { type: 'traslado', merchant: { id: merchant.id, serie: TRASLADO_SERIE }, idempotencyKey },
      (_id, folio) => ({
        folioText: body.folio ?? null,
        usoCfdi: 'S01',
        currency: 'XXX',
        // The receiver of a traslado of one's own goods is the issuer itself.
        receiver: {
          rfc: issuer.rfc,
          name: issuer.legalName,
          zip: issuer.zip,
          regimenFiscal: issuer.regimenFiscal,
        },
        subtotal: '0',
        discount: '0',
        total: '0',
        input: { ...stored, folio },
      }),
    ),
  );
}

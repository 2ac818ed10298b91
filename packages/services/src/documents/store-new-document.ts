import { newId, type EntityManager } from '@cfdi/db';
import type { Config } from '@cfdi/config';
import { attachIdempotentResource } from '../idempotency';
import { reserveTimbre } from '../ledger';
import type { Scope } from '../scope';
import { DOCUMENT_ID_PREFIX, type DocumentRow, type DocumentType } from './document-row';
import { nextFolio } from './folios';
import { insertDocument, promoteDraft, type NewDocument } from './repository';
import type { MerchantForStamping } from '../merchants';

export type DocumentDetails = Omit<
  NewDocument,
  'id' | 'type' | 'merchantId' | 'serie' | 'folio' | 'reservationId'
>;

/**
 * Inside the caller's transaction: the next folio of the merchant's serie, one timbre reserved, the document stored
 * as `stamping` and bound to its idempotency key. Locks are always taken in this order (folio row, then balance),
 * so concurrent creations never deadlock; `describe` builds the document once its id and folio are known.
 * `draftId` stamps that draft (locked by the caller) instead of inserting a new document: it keeps its id.
 */
export async function storeNewDocument(
  tx: EntityManager,
  config: Pick<Config, 'priceTiers'>,
  scope: Scope,
  args: {
    type: DocumentType;
    merchant: Pick<MerchantForStamping, 'id' | 'serie'>;
    idempotencyKey?: string;
    draftId?: string;
  },
  describe: (id: string, folio: number) => DocumentDetails,
): Promise<DocumentRow> {
  const id = args.draftId ?? newId(DOCUMENT_ID_PREFIX[args.type]);
  const folio = await nextFolio(tx, args.merchant.id, args.merchant.serie);
  const details = describe(id, folio);
  const reservation = await reserveTimbre(tx, config, scope, { type: args.type, id });
  const doc: NewDocument = {
    ...details,
    id,
    type: args.type,
    merchantId: args.merchant.id,
    serie: args.merchant.serie,
    folio,
    reservationId: reservation.id,
  };
  const row = args.draftId ? await promoteDraft(tx, doc) : await insertDocument(tx, scope, doc);
  if (args.idempotencyKey) await attachIdempotentResource(tx, scope, args.idempotencyKey, id);
  return row;
}

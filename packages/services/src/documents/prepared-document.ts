import type { EntityManager } from '@cfdi/db';
import type { Config } from '@cfdi/config';
import type { MerchantForStamping } from '../merchants';
import type { Scope } from '../scope';
import type { DocumentRow, DocumentType } from './document-row';
import { storeNewDocument, type DocumentDetails } from './store-new-document';

/**
 * A create request validated and totalled by the tax engine: what would be stored, before any folio, reservation or
 * lock. A normal create stores it at once; a draft stores it without folio, and its stamp prepares it again and stores
 * it the same way, so a draft's preview and its stamp run exactly the code a create runs.
 */
export interface PreparedDocument {
  type: DocumentType;
  merchant: MerchantForStamping;
  /** The document's columns and engine input; the folio is added to the input once assigned. */
  details: DocumentDetails;
  /**
   * Checks and writes that only hold under a lock of the store transaction (a credit note's related invoice: no
   * cancellation in between, the credit left, its outstanding balance), returning columns they decide.
   */
  underLock?: (tx: EntityManager) => Promise<Partial<DocumentDetails>>;
}

/**
 * Inside the caller's transaction: the prepared document's locked checks, then folio, reservation and the row
 * (`stamping`), bound to the idempotency key; `draftId` stamps that draft rather than inserting a new document.
 */
export async function storePrepared(
  tx: EntityManager,
  config: Pick<Config, 'priceTiers'>,
  scope: Scope,
  prepared: PreparedDocument,
  options: { idempotencyKey?: string; draftId?: string } = {},
): Promise<DocumentRow> {
  const locked = prepared.underLock ? await prepared.underLock(tx) : {};
  return storeNewDocument(
    tx,
    config,
    scope,
    { type: prepared.type, merchant: prepared.merchant, ...options },
    (_id, folio) => ({ ...prepared.details, ...locked, input: { ...prepared.details.input, folio } }),
  );
}

import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from '../documents/document-row';
import { emitEvent } from '../documents/events';
import { toDocumentView } from '../documents/document-view';
import { toReceiptView } from './receipts';
import { reopenReceiptsOfDocument, selectCoveredReceipts } from './receipt-repository';

/**
 * An invoice of receipts, or a global invoice, that the SAT refused (stamp_failed) never existed: its receipts become
 * open again, in the transaction that records the failure, so the customer can invoice them with corrected data or
 * the next global run take them. Only receipts still pointing at that document (invoiced or in_global) change.
 */
export async function reopenReceiptsOf(tx: EntityManager, documentId: string): Promise<void> {
  await reopenReceiptsOfDocument(tx, documentId);
}

/**
 * In the transaction that records a document stamped: `receipt.invoiced` or `receipt.in_global` for each receipt it
 * covers, and `global_invoice.stamped` for a global invoice of receipts. Emitted at the stamp, not when the receipts
 * were marked, because until then the invoice may still fail and give them back (reopenReceiptsOf).
 */
export async function emitCoveredReceiptEvents(
  tx: EntityManager,
  document: DocumentRow,
  portalUrl: string,
): Promise<void> {
  const rows = await selectCoveredReceipts(tx, document.id);
  const scope = { accountId: document.account_id, livemode: document.livemode };
  for (const row of rows)
    await emitEvent(
      tx,
      scope,
      `receipt.${row.status as 'invoiced' | 'in_global'}`,
      toReceiptView(row, portalUrl),
    );
  if (rows.some((row) => row.status === 'in_global'))
    await emitEvent(tx, scope, 'global_invoice.stamped', toDocumentView(document));
}

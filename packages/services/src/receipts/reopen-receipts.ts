import type { EntityManager } from '@cfdi/db';

/**
 * An invoice of receipts that the SAT refused (stamp_failed) never existed: its receipts become open again, in the
 * transaction that records the failure, so the customer can invoice them with corrected data or the global run take
 * them. Only receipts still pointing at that document and `invoiced` change.
 */
export async function reopenReceiptsOf(tx: EntityManager, documentId: string): Promise<void> {
  await tx.execute(
    `update receipts set status = 'open', invoice_document_id = null, updated_at = now()
      where invoice_document_id = ? and status = 'invoiced'`,
    [documentId],
  );
}

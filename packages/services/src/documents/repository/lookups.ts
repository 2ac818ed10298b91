/** One document by its key or by its UUID, for reading or under a row lock. */
import type { EntityManager } from '@cfdi/db';
import { anyRow, firstRow } from '../../sql';
import type { Tenant } from '../../scope';
import type { DocumentRow, DocumentType } from './rows';

/** The document of the tenant with this id (and type, when given), or undefined. */
export function selectScopedDocument(
  em: EntityManager,
  scope: Tenant,
  id: string,
  type?: DocumentType,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    em,
    `select * from documents where id = ? and account_id = ? and livemode = ?${type ? ' and type = ?' : ''}`,
    type ? [id, scope.accountId, scope.livemode, type] : [id, scope.accountId, scope.livemode],
  );
}

/** The document by id alone (workers act on behalf of whoever created it), or undefined. */
export function selectDocument(em: EntityManager, id: string): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(em, 'select * from documents where id = ?', [id]);
}

/** A document read with its merchant's references (`merchant_*` columns), in one query. */
export type DocumentWithMerchantColumns = DocumentRow & {
  merchant_csd_serial: string | null;
  merchant_logo_key: string | null;
  merchant_brand_color: string | null;
  merchant_pdf_note: string | null;
  merchant_auto_email: boolean | null;
};

export function selectDocumentWithMerchantColumns(
  em: EntityManager,
  id: string,
): Promise<DocumentWithMerchantColumns | undefined> {
  return firstRow<DocumentWithMerchantColumns>(
    em,
    `select d.*, c.serial_number as merchant_csd_serial, m.logo_key as merchant_logo_key,
              m.brand_color as merchant_brand_color, m.pdf_note as merchant_pdf_note,
              coalesce(cu.auto_email, m.auto_email) as merchant_auto_email
       from documents d left join merchants m on m.id = d.merchant_id left join merchant_csds c on c.merchant_id = d.merchant_id
            left join customers cu on cu.id = d.customer_id and cu.deleted_at is null
      where d.id = ?`,
    [id],
  );
}

/** The document with its merchant's `auto_email` setting (the automatic e-mail's check), or undefined. */
export function selectDocumentWithAutoEmail(
  em: EntityManager,
  id: string,
): Promise<(DocumentRow & { auto_email: boolean }) | undefined> {
  return firstRow<DocumentRow & { auto_email: boolean }>(
    em,
    'select d.*, m.auto_email from documents d join merchants m on m.id = d.merchant_id where d.id = ?',
    [id],
  );
}

/** The document locked for the transaction (`for update`), or undefined. */
export function lockDocument(tx: EntityManager, id: string): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(tx, 'select * from documents where id = ? for update', [id]);
}

/** Takes the row lock of a document without reading it (payment creation takes the invoice's the same way). */
export async function lockDocumentId(tx: EntityManager, id: string | null): Promise<void> {
  await tx.execute('select id from documents where id = ? for update', [id]);
}

/** The tenant's document of this type, locked for the transaction; the row type is the caller's view of it. */
export function lockScopedDocument<Row extends DocumentRow = DocumentRow>(
  tx: EntityManager,
  scope: Tenant,
  id: string,
  type: DocumentType,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    'select * from documents where id = ? and account_id = ? and livemode = ? and type = ? for update',
    [id, scope.accountId, scope.livemode, type],
  );
}

/** The tenant's invoice, locked: payments of one invoice are decided one at a time. */
export function lockScopedInvoice(
  tx: EntityManager,
  scope: Tenant,
  invoiceId: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `select * from documents where id = ? and account_id = ? and livemode = ? and type = 'invoice' for update`,
    [invoiceId, scope.accountId, scope.livemode],
  );
}

/** The tenant's invoice (or credit note) for a draft operation, locked with `lock`. */
export function selectScopedInvoice(
  em: EntityManager,
  scope: Tenant,
  id: string,
  lock: boolean,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    em,
    `select * from documents where id = ? and account_id = ? and livemode = ? and type = 'invoice'${lock ? ' for update' : ''}`,
    [id, scope.accountId, scope.livemode],
  );
}

// ---- By UUID

/** The tenant's document holding this UUID (already upper-case), or undefined. */
export function selectDocumentByUuid(
  em: EntityManager,
  scope: Tenant,
  uuid: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    em,
    'select * from documents where account_id = ? and livemode = ? and uuid = ?',
    [scope.accountId, scope.livemode, uuid],
  );
}

/** Whether any document, of any tenant, holds this UUID (already upper-case): a yes/no that names nobody. */
export function uuidHeld(em: EntityManager, uuid: string): Promise<boolean> {
  return anyRow(em, 'select 1 from documents where uuid = ?', [uuid]);
}

/** Whether any document other than `documentId`, of any tenant, holds this UUID (already upper-case). */
export function uuidHeldByAnother(em: EntityManager, uuid: string, documentId: string): Promise<boolean> {
  return anyRow(em, 'select 1 from documents where uuid = ? and id <> ?', [uuid, documentId]);
}

/** Another document of the same account and mode as `documentId` holding this UUID (already upper-case). */
export async function selectOtherHolderOfUuid(
  em: EntityManager,
  uuid: string,
  documentId: string,
): Promise<string | null> {
  const row = await firstRow<{ id: string }>(
    em,
    `select other.id from documents other join documents me on me.id = ?
      where other.uuid = ? and other.id <> me.id and other.account_id = me.account_id and other.livemode = me.livemode`,
    [documentId, uuid],
  );
  return row?.id ?? null;
}

/** The replacement a cancellation with motive 01 names (UUID already upper-case), with its XML, or undefined. */
export function selectReplacementByUuid(
  tx: EntityManager,
  scope: Tenant,
  uuid: string,
): Promise<Pick<DocumentRow, 'id' | 'status' | 'stamped_xml' | 'sealed_xml'> | undefined> {
  return firstRow(
    tx,
    'select id, status, stamped_xml, sealed_xml from documents where account_id = ? and livemode = ? and uuid = ?',
    [scope.accountId, scope.livemode, uuid],
  );
}

/** The tenant's documents holding these UUIDs (already upper-case), as a payroll replacement checks them. */
export function selectDocumentsByUuids(
  em: EntityManager,
  scope: Tenant,
  uuids: string[],
): Promise<Array<Pick<DocumentRow, 'id' | 'uuid' | 'type' | 'status' | 'merchant_id'>>> {
  return em.execute(
    'select id, uuid, type, status, merchant_id from documents where account_id = ? and livemode = ? and uuid = any(?)',
    [scope.accountId, scope.livemode, uuids],
  );
}

/** The tenant's payment complements among these UUIDs (already upper-case). */
export function selectPaymentUuids(
  em: EntityManager,
  scope: Tenant,
  uuids: string[],
): Promise<Array<{ uuid: string }>> {
  return em.execute(
    `select uuid from documents where account_id = ? and livemode = ? and type = 'payment' and uuid = any(?)`,
    [scope.accountId, scope.livemode, uuids],
  );
}

/** What a ZIP export reads of a stamped document: where its files are, and its stamped XML. */
export type DocumentFilesRow = Pick<DocumentRow, 'id' | 'uuid' | 'merchant_id' | 'files' | 'stamped_xml'>;

/** The files and stamped XML of the tenant's documents `ids`, in one query (an export's batch). */
export function selectDocumentFiles(
  em: EntityManager,
  scope: Tenant,
  ids: string[],
): Promise<DocumentFilesRow[]> {
  return em.execute(
    `select id, uuid, merchant_id, files, stamped_xml from documents
      where account_id = ? and livemode = ? and id = any(?)`,
    [scope.accountId, scope.livemode, ids],
  );
}

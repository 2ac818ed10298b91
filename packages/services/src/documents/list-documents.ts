import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import { assertMerchantAccess } from '../merchants';
import type { Scope } from '../scope';
import { loadDocument, type DocumentRow, type DocumentStatus, type DocumentType } from './document-row';

export interface DocumentFilters {
  merchantId?: string;
  kind?: 'nominal' | 'global' | 'credit_note';
  status?: DocumentStatus;
  uuid?: string;
  metodoPago?: 'PUE' | 'PPD';
  invoiceId?: string;
  createdFrom?: string;
  createdTo?: string;
  /** Payroll: the employee's RFC (the CFDI's receiver). */
  employeeRfc?: string;
  /** Payroll: FechaPago from / to (YYYY-MM-DD, inclusive). */
  paymentDateFrom?: string;
  paymentDateTo?: string;
}

export async function retrieveDocument(em: EntityManager, scope: Scope, id: string, type: DocumentType): Promise<DocumentRow> {
  const row = await loadDocument(em, scope, id, type);
  // A key restricted to some merchants touches only their documents (403 for the others).
  assertMerchantAccess(scope, row.merchant_id);
  return row;
}

/** Newest first, `starting_after` = last id of the previous page, every filter of the spec. */
export async function listDocuments(em: EntityManager, scope: Scope, type: DocumentType, filters: DocumentFilters, page: { limit: number; startingAfter?: string }) {
  const where = ['account_id = ?', 'livemode = ?', 'type = ?'];
  const params: unknown[] = [scope.accountId, scope.livemode, type];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (scope.merchantIds) add('merchant_id in (?)', scope.merchantIds);
  if (filters.merchantId) add('merchant_id = ?', filters.merchantId);
  if (filters.kind) add('kind = ?', filters.kind);
  if (filters.status) add('status = ?', filters.status);
  if (filters.uuid) add('uuid = ?', filters.uuid.toUpperCase());
  if (filters.metodoPago) add('metodo_pago = ?', filters.metodoPago);
  if (filters.invoiceId) add('invoice_id = ?', filters.invoiceId);
  if (filters.createdFrom) add('created_at >= ?', filters.createdFrom);
  if (filters.createdTo) add('created_at <= ?', filters.createdTo);
  if (filters.employeeRfc) add("receiver->>'rfc' = ?", filters.employeeRfc.toUpperCase());
  if (filters.paymentDateFrom) add('fecha_pago >= ?', filters.paymentDateFrom);
  if (filters.paymentDateTo) add('fecha_pago <= ?', filters.paymentDateTo);
  if (page.startingAfter) {
    const cursor: unknown[] = await em.execute('select 1 from documents where id = ? and account_id = ? and livemode = ? and type = ?', [
      page.startingAfter, scope.accountId, scope.livemode, type,
    ]);
    if (!cursor.length) throw ValidationError.field('/starting_after', `No ${type} "${page.startingAfter}" to start after.`);
    add('id < ?', page.startingAfter);
  }
  const rows: DocumentRow[] = await em.execute(
    `select * from documents where ${where.join(' and ')} order by id desc limit ?`,
    [...params, page.limit + 1],
  );
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/** Documents awaiting an operator or the PAC lookup, across accounts (operators' view). */
export async function listAwaitingReconciliation(em: EntityManager): Promise<DocumentRow[]> {
  return em.execute(`select * from documents where needs_reconciliation and status = 'stamping' order by id`);
}

/** Stamped documents whose files failed for good (`cfdi files failed`), oldest first. */
export async function listFailedFiles(em: EntityManager): Promise<DocumentRow[]> {
  return em.execute(`select * from documents where files_status = 'failed' and uuid is not null order by id`);
}

/** Why a document's files cannot be rendered (again), or null when they can: the CLI's and the console's check. */
export function filesCannotRender(row: DocumentRow): string | null {
  if (!row.uuid) return `${row.id} is ${row.status}: only a stamped document has files`;
  if (!row.stamped_xml) return `${row.id} was confirmed stamped without the PAC's copy (--without-xml): there is no XML to render`;
  return null;
}

export async function reconciliationHistory(em: EntityManager, documentId: string) {
  return em.execute<{ id: string; resolution: string; uuid: string | null; resolved_by: string; note: string | null; created_at: string }[]>(
    'select * from reconciliations where document_id = ? order by id', [documentId],
  );
}

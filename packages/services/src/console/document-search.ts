import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import { MEXICO_CITY } from '../time';
import { loadDocument, type DocumentRow, type DocumentStatus } from '../documents/document-row';

/** What a finance user calls a document's kind: the invoice kinds plus the other document types. */
export const DOCUMENT_KINDS = ['nominal', 'global', 'credit_note', 'payment', 'nomina'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_STATUSES: DocumentStatus[] = ['stamping', 'stamped', 'stamp_failed', 'cancel_pending', 'cancelled'];

export interface DocumentSearch {
  uuid?: string;
  /** Receiver RFC (exact) or part of the receiver's name. */
  receiver?: string;
  serie?: string;
  folio?: string;
  status?: DocumentStatus;
  kind?: DocumentKind;
  merchantId?: string;
  /** Calendar dates (YYYY-MM-DD) in Mexico City, inclusive. */
  from?: string;
  to?: string;
  /** Total in pesos, inclusive. */
  minTotal?: number;
  maxTotal?: number;
  startingAfter?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/i;

/** Every search field checked here, on the server, whatever the form let through. */
export function checkDocumentSearch(search: DocumentSearch): void {
  if (search.status && !DOCUMENT_STATUSES.includes(search.status)) throw ValidationError.field('/status', 'Unknown status.');
  if (search.kind && !DOCUMENT_KINDS.includes(search.kind)) throw ValidationError.field('/kind', 'Unknown kind.');
  for (const field of ['from', 'to'] as const) {
    if (search[field] && !DATE.test(search[field]!)) throw ValidationError.field(`/${field}`, 'must be a date (YYYY-MM-DD)');
  }
  for (const field of ['minTotal', 'maxTotal'] as const) {
    const value = search[field];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) throw ValidationError.field(`/${field}`, 'must be an amount of at least 0');
  }
}

/** The scope's documents (every type) matching the search, newest first, `limit` per page. */
export async function searchDocuments(em: EntityManager, scope: Scope, search: DocumentSearch, limit = 50): Promise<{ rows: DocumentRow[]; hasMore: boolean }> {
  checkDocumentSearch(search);
  const where = ['account_id = ?', 'livemode = ?'];
  const params: unknown[] = [scope.accountId, scope.livemode];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (scope.merchantIds) add('merchant_id in (?)', scope.merchantIds);
  if (search.uuid) add('uuid = ?', search.uuid.trim().toUpperCase());
  if (search.receiver) {
    const text = search.receiver.trim();
    if (RFC.test(text)) add("receiver->>'rfc' = ?", text.toUpperCase());
    else add("receiver->>'name' ilike ?", `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (search.serie) add('serie = ?', search.serie.trim().toUpperCase());
  if (search.folio) add('(folio::text = ? or folio_text = ?)', search.folio.trim(), search.folio.trim());
  if (search.status) add('status = ?', search.status);
  if (search.kind === 'payment' || search.kind === 'nomina') add('type = ?', search.kind);
  else if (search.kind) add("type = 'invoice' and kind = ?", search.kind);
  if (search.merchantId) add('merchant_id = ?', search.merchantId);
  if (search.from) add(`created_at >= (?::date)::timestamp at time zone '${MEXICO_CITY}'`, search.from);
  if (search.to) add(`created_at < (?::date + 1)::timestamp at time zone '${MEXICO_CITY}'`, search.to);
  if (search.minTotal !== undefined) add('total >= ?', search.minTotal);
  if (search.maxTotal !== undefined) add('total <= ?', search.maxTotal);
  if (search.startingAfter) add('id < ?', search.startingAfter);
  const rows: DocumentRow[] = await em.execute(
    `select id, account_id, livemode, merchant_id, type, kind, status, serie, folio, folio_text, total, currency, receiver, uuid,
            needs_reconciliation, files_status, stamped_at, created_at, updated_at
       from documents where ${where.join(' and ')} order by id desc limit ?`,
    [...params, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** Documents related to one: its credit notes and payments (pointing at it), and the one it points at. */
export async function relatedDocuments(em: EntityManager, scope: Scope, row: DocumentRow): Promise<Pick<DocumentRow, 'id' | 'type' | 'kind' | 'status' | 'needs_reconciliation' | 'uuid' | 'total' | 'serie' | 'folio' | 'created_at'>[]> {
  return em.execute(
    `select id, type, kind, status, needs_reconciliation, uuid, total, serie, folio, created_at from documents
      where account_id = ? and livemode = ? and id <> ?
        and (invoice_id = ? or related_invoice_id = ? or id = ? or id = ? or (? is not null and related_uuid = ?))
      order by id`,
    [scope.accountId, scope.livemode, row.id, row.id, row.id, row.invoice_id ?? '', row.related_invoice_id ?? '', row.uuid, row.uuid],
  );
}

/** One document of the scope, whatever its type; a merchant outside the user's limit is as absent as another account's. */
export async function retrieveScopedDocument(em: EntityManager, scope: Scope, id: string): Promise<DocumentRow> {
  const row = await loadDocument(em, scope, id);
  if (scope.merchantIds && !scope.merchantIds.includes(row.merchant_id)) throw new NotFoundError('document', id);
  return row;
}

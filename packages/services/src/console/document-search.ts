import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import { MEXICO_CITY } from '../time';
import {
  Conditions,
  keysetCount,
  keysetPage,
  type KeysetList,
  type Page,
  type RowCount,
} from '../pagination';
import { OPEN_INVOICE } from './receivables';
import {
  DOCUMENT_ID_PREFIX,
  loadDocument,
  type DocumentRow,
  type DocumentStatus,
  type DocumentType,
} from '../documents/document-row';

/** The document types other than invoices, each a kind of its own in the search: every type the registry has. */
const OTHER_TYPES = (Object.keys(DOCUMENT_ID_PREFIX) as DocumentType[]).filter(
  (t): t is Exclude<DocumentType, 'invoice'> => t !== 'invoice',
);
/** What a finance user calls a document's kind: the invoice kinds plus the other document types. */
export type SearchKind = 'nominal' | 'global' | 'credit_note' | Exclude<DocumentType, 'invoice'>;
export const SEARCH_KINDS: readonly SearchKind[] = ['nominal', 'global', 'credit_note', ...OTHER_TYPES];
export const DOCUMENT_STATUSES: DocumentStatus[] = [
  'stamping',
  'stamped',
  'stamp_failed',
  'cancel_pending',
  'cancelled',
];

export interface DocumentSearch {
  uuid?: string;
  /** Receiver RFC (exact) or part of the receiver's name. */
  receiver?: string;
  serie?: string;
  folio?: string;
  status?: DocumentStatus;
  kind?: SearchKind;
  merchantId?: string;
  /** Calendar dates (YYYY-MM-DD) in Mexico City, inclusive. */
  from?: string;
  to?: string;
  /** Total in pesos, inclusive. */
  minTotal?: number;
  maxTotal?: number;
  /** Only invoices a customer still owes something on (see receivables.ts). */
  withBalance?: boolean;
  startingAfter?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/i;

/** Every search field checked here, on the server, whatever the form let through. */
function checkDocumentSearch(search: DocumentSearch): void {
  if (search.status && !DOCUMENT_STATUSES.includes(search.status))
    throw ValidationError.field('/status', 'Unknown status.');
  if (search.kind && !SEARCH_KINDS.includes(search.kind))
    throw ValidationError.field('/kind', 'Unknown kind.');
  for (const field of ['from', 'to'] as const) {
    if (search[field] && !DATE.test(search[field]!))
      throw ValidationError.field(`/${field}`, 'must be a date (YYYY-MM-DD)');
  }
  for (const field of ['minTotal', 'maxTotal'] as const) {
    const value = search[field];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0))
      throw ValidationError.field(`/${field}`, 'must be an amount of at least 0');
  }
}

/** The scope's documents (every type) matching the search, newest first, `limit` per page from `offset`. */
export async function searchDocuments(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
  limit = 50,
  offset = 0,
): Promise<Page<DocumentRow>> {
  return keysetPage<DocumentRow>(em, documentList(scope, search), {
    limit,
    startingAfter: search.startingAfter,
    offset,
  });
}

/** How many documents the search finds (capped, see COUNT_CAP); `startingAfter` is ignored. */
export function countDocuments(em: EntityManager, scope: Scope, search: DocumentSearch): Promise<RowCount> {
  return keysetCount(em, documentList(scope, search));
}

/** How many documents the search finds, uncapped (an export's total, which picks streaming or the workflow). */
export async function countAllDocuments(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): Promise<number> {
  const where = documentList(scope, search).where!;
  const [row] = await em.execute<{ count: string }[]>(
    `select count(*) from documents where account_id = ? and livemode = ? and ${where.clauses.join(' and ')}`,
    [scope.accountId, scope.livemode, ...where.params],
  );
  return Number(row!.count);
}

function documentList(scope: Scope, search: DocumentSearch): KeysetList {
  checkDocumentSearch(search);
  // The console shows fiscal documents: a draft is an integrator's work in progress, with no folio and no timbre.
  const where = new Conditions().add("status <> 'draft'");
  if (scope.merchantIds) where.add('merchant_id = any(?)', scope.merchantIds);
  // A whole UUID, or its first characters as people copy them from a PDF.
  if (search.uuid)
    where.add(
      'uuid like ?',
      `${search.uuid
        .trim()
        .toUpperCase()
        .replace(/[\\%_]/g, '')}%`,
    );
  if (search.receiver) {
    const text = search.receiver.trim();
    if (RFC.test(text)) where.add("receiver->>'rfc' = ?", text.toUpperCase());
    else where.add("receiver->>'name' ilike ?", `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (search.serie) where.add('serie = ?', search.serie.trim().toUpperCase());
  if (search.folio) {
    // As printed too: `F-1005` (serie-folio, as the console lists it) or `F1005` finds folio 1005 of serie F.
    const folio = search.folio.trim();
    where.add(
      `(? in (folio::text, folio_text)
        or upper(?) in (serie || '-' || coalesce(folio_text, folio::text), serie || coalesce(folio_text, folio::text)))`,
      folio,
      folio,
    );
  }
  if (search.status) where.add('status = ?', search.status);
  if (search.kind && (OTHER_TYPES as readonly string[]).includes(search.kind))
    where.add('type = ?', search.kind);
  else if (search.kind) where.add("type = 'invoice' and kind = ?", search.kind);
  if (search.merchantId) where.add('merchant_id = ?', search.merchantId);
  if (search.from) where.add(`created_at >= (?::date)::timestamp at time zone '${MEXICO_CITY}'`, search.from);
  if (search.to) where.add(`created_at < (?::date + 1)::timestamp at time zone '${MEXICO_CITY}'`, search.to);
  if (search.minTotal !== undefined) where.add('total >= ?', search.minTotal);
  if (search.maxTotal !== undefined) where.add('total <= ?', search.maxTotal);
  if (search.withBalance) where.add(OPEN_INVOICE);
  return {
    select: `select id, account_id, livemode, merchant_id, type, kind, status, serie, folio, folio_text, total, monto, saldo_pendiente, currency,
                    receiver, uuid, needs_reconciliation, files_status, stamped_at, created_at, updated_at
               from documents`,
    table: 'documents',
    scope,
    where,
    noun: 'document',
  };
}

/** Documents related to one: its credit notes and payments (pointing at it), and the one it points at. */
export async function relatedDocuments(
  em: EntityManager,
  scope: Scope,
  row: DocumentRow,
): Promise<
  Pick<
    DocumentRow,
    | 'id'
    | 'type'
    | 'kind'
    | 'status'
    | 'needs_reconciliation'
    | 'uuid'
    | 'total'
    | 'monto'
    | 'currency'
    | 'serie'
    | 'folio'
    | 'created_at'
  >[]
> {
  // Each way of being related through its own index (an OR of them would scan every account's documents).
  return em.execute(
    `select id, type, kind, status, needs_reconciliation, uuid, total, monto, currency, serie, folio, created_at from documents
      where account_id = ? and livemode = ? and id <> ? and status <> 'draft'
        and id in (select id from documents where invoice_id = ?
                   union all select id from documents where related_invoice_id = ?
                   union all select id from documents where related_uuid = ?
                   union all select unnest(array[?, ?]::text[]) collate "C")
      order by id`,
    [
      scope.accountId,
      scope.livemode,
      row.id,
      row.id,
      row.id,
      row.uuid,
      row.invoice_id,
      row.related_invoice_id,
    ],
  );
}

/** One document of the scope, whatever its type; a merchant outside the user's limit is as absent as another account's. */
export async function retrieveScopedDocument(
  em: EntityManager,
  scope: Scope,
  id: string,
): Promise<DocumentRow> {
  const row = await loadDocument(em, scope, id);
  if (scope.merchantIds && !scope.merchantIds.includes(row.merchant_id))
    throw new NotFoundError('document', id);
  return row;
}

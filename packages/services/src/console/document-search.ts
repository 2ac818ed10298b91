import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { Page, RowCount } from '../pagination';
import { loadDocument, type DocumentRow, type DocumentStatus } from '../documents/document-row';
import {
  OTHER_TYPES,
  documentSearchCount,
  documentSearchCountAll,
  documentSearchPage,
  selectRelatedDocuments,
  type DocumentSearch,
  type RelatedDocumentRow,
  type SearchKind,
} from '../documents/repository';

export type { DocumentSearch, SearchKind };
export const SEARCH_KINDS: readonly SearchKind[] = ['nominal', 'global', 'credit_note', ...OTHER_TYPES];
export const DOCUMENT_STATUSES: DocumentStatus[] = [
  'stamping',
  'stamped',
  'stamp_failed',
  'cancel_pending',
  'cancelled',
];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

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
  checkDocumentSearch(search);
  return documentSearchPage(em, scope, search, { limit, startingAfter: search.startingAfter, offset });
}

/** How many documents the search finds (capped, see COUNT_CAP); `startingAfter` is ignored. */
export function countDocuments(em: EntityManager, scope: Scope, search: DocumentSearch): Promise<RowCount> {
  checkDocumentSearch(search);
  return documentSearchCount(em, scope, search);
}

/** How many documents the search finds, uncapped (an export's total, which picks streaming or the workflow). */
export async function countAllDocuments(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): Promise<number> {
  checkDocumentSearch(search);
  return documentSearchCountAll(em, scope, search);
}

/** Documents related to one: its credit notes and payments (pointing at it), and the one it points at. */
export const relatedDocuments = (
  em: EntityManager,
  scope: Scope,
  row: DocumentRow,
): Promise<RelatedDocumentRow[]> => selectRelatedDocuments(em, scope, row);

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

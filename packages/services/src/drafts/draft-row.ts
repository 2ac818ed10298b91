import type { EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from '../documents/document-row';
import { selectScopedInvoice } from '../documents/repository';
import { kindOf, type DocumentKind } from '../documents/kinds';
import type { StampingDeps } from '../documents/stamping-deps';

/**
 * An invoice or credit note of the scope for a draft operation, locked when `tx` is a transaction (`for update`).
 * Another account's or mode's document, and one of a merchant outside a restricted key, is not found: the draft
 * routes tell nothing about documents the key cannot use (issue #36).
 */
export async function loadInvoiceFor(
  em: EntityManager,
  scope: Scope,
  id: string,
  options: { lock?: boolean } = {},
): Promise<DocumentRow> {
  const row = await selectScopedInvoice(em, scope, id, options.lock === true);
  if (!row || (scope.merchantIds && !scope.merchantIds.includes(row.merchant_id)))
    throw new NotFoundError('invoice', id);
  return row;
}

/** The draft `id` (locked with `lock`) and its kind; 409 `not_a_draft` when the document is already past drafting. */
export async function loadDraft(
  em: EntityManager,
  scope: Scope,
  id: string,
  options: { lock?: boolean } = {},
): Promise<{ row: DocumentRow; kind: DocumentKind<never> }> {
  const row = await loadInvoiceFor(em, scope, id, options);
  if (row.status !== 'draft') {
    throw new ConflictError(
      'not_a_draft',
      `${row.id} is ${row.status}, not a draft: only a draft can be edited, stamped or deleted.`,
    );
  }
  return { row, kind: kindOf(row) };
}

/** An operation on an invoice or credit note of the scope that yields a document, bound to an idempotency key. */
export type DraftOperation = (
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  id: string,
  idempotencyKey?: string,
) => Promise<DocumentRow>;

/** The kind's `prepare`: only draftable kinds (invoices and credit notes) have one. */
export function preparerOf(kind: DocumentKind<never>): NonNullable<DocumentKind<never>['prepare']> {
  if (!kind.prepare) throw new Error(`document kind ${kind.name} has no drafts`);
  return kind.prepare;
}

import { newId, type EntityManager } from '@cfdi/db';
import { attachIdempotentResource } from '../idempotency';
import type { Scope } from '../scope';
import type { DocumentRow } from '../documents/document-row';
import { insertDocument, type NewDocument } from '../documents/repository';
import type { PreparedDocument } from '../documents/prepared-document';
import type { DocumentKind } from '../documents/kinds';
import type { StampingDeps } from '../documents/stamping-deps';
import { preparerOf } from './draft-row';

/** A create body that asks for a draft (`status: "draft"`): the rest is the kind's create body. */
export type DraftRequest = Record<string, unknown> & { status?: 'draft' };

/** The create body without its `status`: what a draft stores and its stamp sends to the kind. */
export function draftBody(body: DraftRequest): Record<string, unknown> {
  const { status: _status, ...rest } = body;
  return rest;
}

/** The row a draft stores: the prepared document with no folio and no reservation, and its create body. */
export function draftDocument(
  prepared: PreparedDocument,
  id: string,
  body: Record<string, unknown>,
): NewDocument {
  return {
    ...prepared.details,
    id,
    type: prepared.type,
    merchantId: prepared.merchant.id,
    serie: prepared.merchant.serie,
    folio: null,
    reservationId: null,
    request: body,
  };
}

/**
 * Stores a draft: the request validated and totalled exactly as a create (`prepare`), with no folio, no reservation,
 * no workflow and no event. The stored request (`request`) is what PATCH edits and the stamp prepares again.
 */
export async function createDraft(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  kind: DocumentKind<never>,
  body: Record<string, unknown>,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const prepared = await preparerOf(kind)(em, deps, scope, body as never);
  return em.transactional(async (tx) => {
    const row = await insertDocument(tx, scope, draftDocument(prepared, newId('inv'), body), 'draft');
    if (idempotencyKey) await attachIdempotentResource(tx, scope, idempotencyKey, row.id);
    return row;
  });
}

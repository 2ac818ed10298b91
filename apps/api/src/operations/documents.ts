import type { FastifyBaseLogger } from 'fastify';
import {
  listAnswer,
  listDocuments,
  retrieveDocument,
  toDocumentView,
  type DocumentFilters,
  type DocumentKind,
  type DocumentType,
  type Scope,
} from '@cfdi/services';
import type { AppDeps } from '../deps';
import { createDraftOf, isDraftRequest } from './drafts';
import { runIdempotent, type Answer } from './idempotent';
import { stampNominaBatch, type NominaBatchBody } from './nomina-batch';
import { idempotentDocument, stampingDeps, storeAndStamp } from './stamping';

// The document operations shared by the REST routes and the MCP tools: each is one call into the services plus the
// stamp workflow, so both doors validate, charge, stamp and answer identically.

/**
 * Creates and stamps a document of any kind: validate, folio, reserve and store (the kind's `create`), then the stamp
 * workflow, under the Idempotency-Key. `operation` names the REST route (`POST /v1/invoices`), so a key used over
 * REST and then by an MCP tool with the same body is the same request; `parentId` is the document it hangs from.
 */
export function createDocument(
  deps: AppDeps,
  scope: Scope,
  kind: DocumentKind<never>,
  operation: string,
  body: unknown,
  key: string,
  log: FastifyBaseLogger,
  parentId?: string,
): Promise<Answer> {
  const request = { key, operation, body, log };
  // `status: "draft"` stores the validated, totalled document without stamping it (operations/drafts.ts).
  if (isDraftRequest(body))
    return idempotentDocument(deps, scope, request, (claimed) =>
      createDraftOf(deps, scope, kind, body, claimed),
    );
  return storeAndStamp(deps, scope, request, (claimed) =>
    kind.create(deps.orm.em.fork(), stampingDeps(deps), scope, body as never, {
      idempotencyKey: claimed,
      ...(parentId ? { parentId } : {}),
    }),
  );
}

export function createNominaBatch(
  deps: AppDeps,
  scope: Scope,
  body: NominaBatchBody,
  key: string,
  log: FastifyBaseLogger,
): Promise<Answer> {
  // A batch attaches no single resource to its key, so there is nothing to recover: a retry re-runs it receipt by
  // receipt, each under its own derived key, so no receipt is created twice.
  return runIdempotent(
    deps,
    scope,
    key,
    'POST /v1/nominas/batch',
    body,
    (claimed) => stampNominaBatch(deps, scope, body, claimed, log),
    () => stampNominaBatch(deps, scope, body, key, log),
  );
}

/** One document of a resource (invoices include credit notes), as its view. */
export async function retrieveOf(deps: AppDeps, scope: Scope, type: DocumentType, id: string) {
  return toDocumentView(await retrieveDocument(deps.orm.em.fork(), scope, id, type), deps.fileUrls);
}

/** A page of a resource's documents, newest first. */
export async function listOf(
  deps: AppDeps,
  scope: Scope,
  type: DocumentType,
  query: { limit: number; starting_after?: string } & DocumentFilters,
) {
  const { limit, starting_after: startingAfter, ...filters } = query;
  const page = await listDocuments(deps.orm.em.fork(), scope, type, filters, { limit, startingAfter });
  return listAnswer(page, (row) => toDocumentView(row, deps.fileUrls));
}

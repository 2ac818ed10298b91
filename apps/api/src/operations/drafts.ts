import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyBaseLogger } from 'fastify';
import {
  copyToDraft,
  createDraft,
  deleteDraft,
  draftBody,
  renderDraftPreview,
  stampDraft,
  toDocumentView,
  updateDraft,
  ValidationError,
  type DocumentKind,
  type DraftRequest,
  type Scope,
} from '@cfdi/services';
import type { AppDeps } from '../deps';
import { toFieldErrors } from '../plugins/validation';
import { DOCUMENT_FACES } from '../kinds/kinds';
import type { Answer } from './idempotent';
import { stampingDeps, storeAndStamp } from './stamping';

/**
 * The draft operations shared by the REST routes and the MCP tools (services/drafts holds the policies): create as a
 * draft, edit, stamp, delete, copy and preview.
 */

/** Whether a create body asks for a draft. */
export const isDraftRequest = (body: unknown): body is DraftRequest =>
  (body as DraftRequest | null)?.status === 'draft';

/** Stores a create body with `status: "draft"` as a draft (the caller holds its Idempotency-Key). */
export async function createDraftOf(
  deps: AppDeps,
  scope: Scope,
  kind: DocumentKind<never>,
  body: DraftRequest,
  key: string,
): Promise<Answer> {
  const row = await createDraft(deps.orm.em.fork(), stampingDeps(deps), scope, kind, draftBody(body), key);
  return { status: 201, body: toDocumentView(row, deps.fileUrls) };
}

// The merged body of a PATCH is checked against its kind's create schema, exactly as a create body is.
const ajv = addFormats(
  new Ajv({
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    strict: false,
  }),
);
const createSchemas = new Map<string, ValidateFunction>(
  DOCUMENT_FACES.flatMap(({ kinds }) => kinds).map((face) => [face.kind.name, ajv.compile(face.body)]),
);

function checkCreateShape(kind: DocumentKind<never>, body: Record<string, unknown>): void {
  const validate = createSchemas.get(kind.name)!;
  if (validate(body)) return;
  const errors = toFieldErrors(validate.errors ?? []);
  throw new ValidationError(
    `The draft would not be a valid ${kind.name} create body: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
    errors,
  );
}

/** PATCH: the draft edited, validated and totalled again (200). */
export async function updateDraftOf(deps: AppDeps, scope: Scope, id: string, patch: Record<string, unknown>) {
  const row = await updateDraft(deps.orm.em.fork(), stampingDeps(deps), scope, id, patch, checkCreateShape);
  return toDocumentView(row, deps.fileUrls);
}

/** The operation a stamp's Idempotency-Key is bound to: the REST route, whoever calls it. */
export const stampOperation = (path: string, id: string) => `POST /v1${path}/${id}/stamp`;

/** POST …/stamp: the draft stamped as a create is, under the Idempotency-Key (201, 202, 402, 422, 503 alike). */
export function stampDraftOf(
  deps: AppDeps,
  scope: Scope,
  path: string,
  id: string,
  key: string,
  log: FastifyBaseLogger,
): Promise<Answer> {
  return storeAndStamp(
    deps,
    scope,
    { key, operation: stampOperation(path, id), body: null, log },
    (claimed) => stampDraft(deps.orm.em.fork(), stampingDeps(deps), scope, id, claimed),
  );
}

export const deleteDraftOf = (deps: AppDeps, scope: Scope, id: string) =>
  deleteDraft(deps.orm.em.fork(), scope, id);

/** POST …/copy: a new draft with the body of any invoice or credit note. */
export async function copyToDraftOf(deps: AppDeps, scope: Scope, id: string) {
  return toDocumentView(await copyToDraft(deps.orm.em.fork(), stampingDeps(deps), scope, id), deps.fileUrls);
}

export const previewOf = (deps: AppDeps, scope: Scope, id: string) =>
  renderDraftPreview(deps.orm.em.fork(), deps.storage, scope, id, deps.now?.() ?? new Date());

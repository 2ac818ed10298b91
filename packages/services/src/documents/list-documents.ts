import { idAtTime, type EntityManager } from '@cfdi/db';
import type { Page, PageRequest } from '../pagination';
import { assertMerchantAccess } from '../merchants';
import type { Scope } from '../scope';
import { DOCUMENT_ID_PREFIX, loadDocument, type DocumentRow, type DocumentType } from './document-row';
import {
  awaitingReconciliationCountedPage,
  documentKeysetPage,
  failedFilesCountedPage,
  selectAwaitingReconciliation,
  selectFailedFiles,
  selectReconciliations,
  type DocumentFilters,
} from './repository';

/**
 * How far a row's created_at (the database's clock at insert) may stand from its id's time (the API's clock when the
 * id was made): the id range of a date filter is widened by this, the created_at condition stays exact.
 */
const ID_CLOCK_SLACK_MS = 60 * 60 * 1000;

/** A created_at bound as the id bound that contains it (ids begin with their creation time), or null when unparseable. */
function idBound(type: DocumentType, at: string, slackMs: number): string | null {
  const time = Date.parse(at);
  return Number.isNaN(time) ? null : idAtTime(DOCUMENT_ID_PREFIX[type], time + slackMs);
}

export type { DocumentFilters };

export async function retrieveDocument(
  em: EntityManager,
  scope: Scope,
  id: string,
  type: DocumentType,
): Promise<DocumentRow> {
  const row = await loadDocument(em, scope, id, type);
  // A key restricted to some merchants touches only their documents (403 for the others).
  assertMerchantAccess(scope, row.merchant_id);
  return row;
}

/** Newest first, `starting_after` = last id of the previous page, every filter of the spec. */
export async function listDocuments(
  em: EntityManager,
  scope: Scope,
  type: DocumentType,
  filters: DocumentFilters,
  page: PageRequest,
): Promise<Page<DocumentRow>> {
  // The created_at range as an id range too, which the key walk uses (there is no created_at index to walk).
  const idRange = {
    from: (filters.createdFrom && idBound(type, filters.createdFrom, -ID_CLOCK_SLACK_MS)) || null,
    to: (filters.createdTo && idBound(type, filters.createdTo, ID_CLOCK_SLACK_MS)) || null,
  };
  return documentKeysetPage(em, scope, type, filters, idRange, page);
}

/** Documents awaiting an operator or the PAC lookup, across accounts (operators' view). */
export const listAwaitingReconciliation = selectAwaitingReconciliation;

/** One numbered page of the reconciliation queue, oldest first (the console's queue). */
export const awaitingReconciliationPage = awaitingReconciliationCountedPage;

/** Stamped documents whose files failed for good (`cfdi files failed`), oldest first. */
export const listFailedFiles = selectFailedFiles;

/** One numbered page of the documents whose files failed, oldest first (the console's failed files page). */
export const failedFilesPage = failedFilesCountedPage;

/** Why a document's files cannot be rendered (again), or null when they can: the CLI's and the console's check. */
export function filesCannotRender(row: DocumentRow): string | null {
  if (!row.uuid) return `${row.id} is ${row.status}: only a stamped document has files`;
  if (!row.stamped_xml)
    return `${row.id} was confirmed stamped without the PAC's copy (--without-xml): there is no XML to render`;
  return null;
}

/** Who resolved the document's reconciliations, how and why, oldest first. */
export const reconciliationHistory = selectReconciliations;

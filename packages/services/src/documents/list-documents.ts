import { idAtTime, type EntityManager } from '@cfdi/db';
import {
  Conditions,
  countedPage,
  keysetPage,
  type CountedPage,
  type ListWindow,
  type Page,
  type PageRequest,
} from '../pagination';
import { assertMerchantAccess } from '../merchants';
import type { Scope } from '../scope';
import {
  DOCUMENT_ID_PREFIX,
  loadDocument,
  type DocumentRow,
  type DocumentStatus,
  type DocumentType,
} from './document-row';

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
  /** Withholding certificates: the receiver's RFC (a Nacional receiver's RfcR). */
  receiverRfc?: string;
  /** Payroll: FechaPago from / to (YYYY-MM-DD, inclusive). */
  paymentDateFrom?: string;
  paymentDateTo?: string;
}

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
  const where = new Conditions().add('type = ?', type);
  if (scope.merchantIds) where.add('merchant_id = any(?)', scope.merchantIds);
  if (filters.merchantId) where.add('merchant_id = ?', filters.merchantId);
  if (filters.kind) where.add('kind = ?', filters.kind);
  if (filters.status) where.add('status = ?', filters.status);
  if (filters.uuid) where.add('uuid = ?', filters.uuid.toUpperCase());
  if (filters.metodoPago) where.add('metodo_pago = ?', filters.metodoPago);
  if (filters.invoiceId) where.add('invoice_id = ?', filters.invoiceId);
  if (filters.createdFrom) where.add('created_at >= ?', filters.createdFrom);
  if (filters.createdTo) where.add('created_at <= ?', filters.createdTo);
  // The same range as an id range, which the key walk uses (there is no created_at index to walk).
  const fromId = filters.createdFrom && idBound(type, filters.createdFrom, -ID_CLOCK_SLACK_MS);
  const toId = filters.createdTo && idBound(type, filters.createdTo, ID_CLOCK_SLACK_MS);
  if (fromId) where.add('id >= ?', fromId);
  if (toId) where.add('id < ?', toId);
  if (filters.employeeRfc) where.add("receiver->>'rfc' = ?", filters.employeeRfc.toUpperCase());
  if (filters.receiverRfc) where.add("receiver->>'rfc' = ?", filters.receiverRfc.toUpperCase());
  if (filters.paymentDateFrom) where.add('fecha_pago >= ?', filters.paymentDateFrom);
  if (filters.paymentDateTo) where.add('fecha_pago <= ?', filters.paymentDateTo);
  // A cursor of another type (a payment's id in the invoice list) is as unknown as another account's.
  return keysetPage<DocumentRow>(
    em,
    {
      select: 'select * from documents',
      table: 'documents',
      scope,
      where,
      idPrefix: DOCUMENT_ID_PREFIX[type],
      cursorAlso: { type },
      noun: type,
    },
    page,
  );
}

const AWAITING_RECONCILIATION = `select * from documents where needs_reconciliation and status = 'stamping' order by id`;
const FAILED_FILES = `select * from documents where files_status = 'failed' and uuid is not null order by id`;

/** Documents awaiting an operator or the PAC lookup, across accounts (operators' view). */
export async function listAwaitingReconciliation(em: EntityManager): Promise<DocumentRow[]> {
  return em.execute(AWAITING_RECONCILIATION);
}

/** One numbered page of the reconciliation queue, oldest first (the console's queue). */
export const awaitingReconciliationPage = (
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<DocumentRow>> => countedPage(em, AWAITING_RECONCILIATION, [], window);

/** Stamped documents whose files failed for good (`cfdi files failed`), oldest first. */
export async function listFailedFiles(em: EntityManager): Promise<DocumentRow[]> {
  return em.execute(FAILED_FILES);
}

/** One numbered page of the documents whose files failed, oldest first (the console's failed files page). */
export const failedFilesPage = (em: EntityManager, window: ListWindow): Promise<CountedPage<DocumentRow>> =>
  countedPage(em, FAILED_FILES, [], window);

/** Why a document's files cannot be rendered (again), or null when they can: the CLI's and the console's check. */
export function filesCannotRender(row: DocumentRow): string | null {
  if (!row.uuid) return `${row.id} is ${row.status}: only a stamped document has files`;
  if (!row.stamped_xml)
    return `${row.id} was confirmed stamped without the PAC's copy (--without-xml): there is no XML to render`;
  return null;
}

export async function reconciliationHistory(em: EntityManager, documentId: string) {
  return em.execute<
    {
      id: string;
      resolution: string;
      uuid: string | null;
      resolved_by: string;
      note: string | null;
      created_at: string;
    }[]
  >('select * from reconciliations where document_id = ? order by id', [documentId]);
}

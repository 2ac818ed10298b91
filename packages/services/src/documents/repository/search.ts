/** The console's search, related documents and receivables. */
import { UUID_PATTERN } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import {
  Conditions,
  keysetCount,
  keysetPage,
  type KeysetList,
  type Page,
  type PageRequest,
  type RowCount,
} from '../../pagination';
import type { Scope } from '../../scope';
import { MEXICO_CITY } from '../../time';
import type { Tenant } from '../../scope';
import { DOCUMENT_ID_PREFIX, type DocumentRow, type DocumentStatus, type DocumentType } from './rows';

/** The document types other than invoices, each a kind of its own in the search: every type the registry has. */
export const OTHER_TYPES = (Object.keys(DOCUMENT_ID_PREFIX) as DocumentType[]).filter(
  (t): t is Exclude<DocumentType, 'invoice'> => t !== 'invoice',
);
/** What a finance user calls a document's kind: the invoice kinds plus the other document types. */
export type SearchKind = 'nominal' | 'global' | 'credit_note' | Exclude<DocumentType, 'invoice'>;

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

/**
 * What counts as a receivable: a stamped PPD invoice (not a credit note) whose balance is not yet paid. A cancelled
 * invoice is owed by no one; one still `cancel_pending` is owed until the SAT says otherwise.
 */
const OPEN_INVOICE = `type = 'invoice' and coalesce(kind, '') <> 'credit_note' and metodo_pago = 'PPD'
  and status in ('stamped', 'cancel_pending') and saldo_pendiente > 0`;

/** The search's list (its fields already checked): the console shows fiscal documents, never drafts. */
function documentSearchList(scope: Scope, search: DocumentSearch): KeysetList {
  // A draft is an integrator's work in progress, with no folio and no timbre.
  const where = new Conditions().add("status <> 'draft'");
  if (scope.merchantIds) where.add('merchant_id = any(?)', scope.merchantIds);
  // A whole UUID (its unique index), or its first characters as people copy them from a PDF (the prefix index).
  if (search.uuid) {
    const uuid = search.uuid.trim().toUpperCase();
    if (UUID_PATTERN.test(uuid)) where.add('uuid = ?', uuid);
    else where.add('uuid like ?', `${uuid.replace(/[\\%_]/g, '')}%`);
  }
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

const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/i;

export const documentSearchPage = (
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
  page: PageRequest,
): Promise<Page<DocumentRow>> => keysetPage<DocumentRow>(em, documentSearchList(scope, search), page);

export const documentSearchCount = (
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): Promise<RowCount> => keysetCount(em, documentSearchList(scope, search));

/** The search's count, uncapped. */
export async function documentSearchCountAll(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): Promise<number> {
  const where = documentSearchList(scope, search).where!;
  const [row] = await em.execute<{ count: string }[]>(
    `select count(*) from documents where account_id = ? and livemode = ? and ${where.clauses.join(' and ')}`,
    [scope.accountId, scope.livemode, ...where.params],
  );
  return Number(row!.count);
}

export type RelatedDocumentRow = Pick<
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
>;

/** Documents related to one: its credit notes and payments (pointing at it), and the one it points at. */
export function selectRelatedDocuments(
  em: EntityManager,
  scope: Tenant,
  row: Pick<DocumentRow, 'id' | 'uuid' | 'invoice_id' | 'related_invoice_id'>,
): Promise<RelatedDocumentRow[]> {
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

/**
 * Aging buckets of what customers still owe, by whole days since the invoice was stamped (its issue), counted in
 * Mexico City dates: 0–30, 31–60, 61–90 and over 90. `upTo` is the bucket's last day; the last bucket has none.
 */
export const AGING_BUCKETS = [
  { key: 'd0_30', upTo: 30 },
  { key: 'd31_60', upTo: 60 },
  { key: 'd61_90', upTo: 90 },
  { key: 'd90_plus', upTo: null },
] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number]['key'];

/** An open invoice's balance in MXN: its currency's balance times its TipoCambio (absent, 1, for MXN). */
const SALDO_MXN = `(saldo_pendiente * coalesce((input->>'tipoCambio')::numeric, 1))`;

/** Days from the issue (Mexico City date of `stamped_at`) to `asOf`'s Mexico City date. */
const DAYS_SINCE_ISSUE = `((?::timestamptz at time zone '${MEXICO_CITY}')::date - (stamped_at at time zone '${MEXICO_CITY}')::date)`;

export type ReceivableRow = Record<AgingBucket, string> & {
  rfc: string;
  name: string;
  invoices: string;
  total: string;
};

/**
 * Outstanding balances per receiver RFC with their aging, the 500 largest first, summed in the database. The largest
 * receivers come from `receivable_totals` (kept by a trigger on `documents`), so only their open invoices are aged; a
 * user limited to some merchants sums those merchants' open invoices instead (the totals are per account).
 */
export function selectReceivablesAging(
  em: EntityManager,
  scope: Scope,
  asOf: Date,
): Promise<ReceivableRow[]> {
  const params: unknown[] = [];
  const bucketColumns = AGING_BUCKETS.map((bucket, i) => {
    const lower = i === 0 ? null : AGING_BUCKETS[i - 1]!.upTo;
    const conditions = [
      ...(lower === null ? [] : [`${DAYS_SINCE_ISSUE} > ${lower}`]),
      ...(bucket.upTo === null ? [] : [`${DAYS_SINCE_ISSUE} <= ${bucket.upTo}`]),
    ];
    conditions.forEach(() => params.push(asOf.toISOString()));
    return `round(coalesce(sum(${SALDO_MXN}) filter (where ${conditions.join(' and ')}), 0), 2)::text as ${bucket.key}`;
  });
  const largest = scope.merchantIds
    ? { from: 'documents', where: 'merchant_id = any(?) and', params: [scope.merchantIds] }
    : {
        from: `(select rfc from receivable_totals where account_id = ? and livemode = ? and invoices > 0
                order by open_mxn desc, rfc limit 500) largest
                join documents on receiver->>'rfc' = largest.rfc`,
        where: '',
        params: [scope.accountId, scope.livemode],
      };
  return em.execute(
    `select receiver->>'rfc' as rfc, max(receiver->>'name') as name, count(*)::text as invoices,
              round(sum(${SALDO_MXN}), 2)::text as total, ${bucketColumns.join(', ')}
         from ${largest.from}
        where ${largest.where} account_id = ? and livemode = ? and ${OPEN_INVOICE}
        group by receiver->>'rfc'
        order by sum(${SALDO_MXN}) desc, receiver->>'rfc'
        limit 500`,
    [...params, ...largest.params, scope.accountId, scope.livemode],
  );
}

import type { Client } from 'pg';

/**
 * Indexes on the large tables (documents, transactions), built with `create index concurrently` after the
 * migrations: the migrator runs every pending migration in one transaction (allOrNothing), where a concurrent build
 * is impossible, and a plain build would block every stamp's insert for the minutes a million-row table takes.
 * Append only; an index's definition never changes (add a new name and drop the old one in a migration instead).
 */
export const concurrentIndexes: { name: string; on: string }[] = [
  // Status and kind filters (and a status with no rows) walk only their own rows, newest first.
  { name: 'documents_status_idx', on: 'documents (account_id, livemode, type, status, id desc)' },
  {
    name: 'documents_kind_idx',
    on: 'documents (account_id, livemode, kind, id desc) where kind is not null',
  },
  // Receiver search: RFC exact (every type), name substring (trigram).
  { name: 'documents_receiver_rfc_idx', on: "documents (account_id, livemode, (receiver->>'rfc'), id desc)" },
  { name: 'documents_receiver_name_trgm_idx', on: "documents using gin ((receiver->>'name') gin_trgm_ops)" },
  // The detail's related documents: credit notes pointing at an invoice by id or by UUID.
  {
    name: 'documents_related_invoice_idx',
    on: 'documents (related_invoice_id) where related_invoice_id is not null',
  },
  { name: 'documents_related_uuid_idx', on: 'documents (related_uuid) where related_uuid is not null' },
  // Foreign keys: deleting (archiving) a referenced row checks these columns.
  { name: 'documents_reservation_idx', on: 'documents (reservation_id) where reservation_id is not null' },
  {
    name: 'documents_cancel_reservation_idx',
    on: 'documents (cancel_reservation_id) where cancel_reservation_id is not null',
  },
  { name: 'documents_customer_idx', on: 'documents (customer_id) where customer_id is not null' },
  // Ledger: a type filter (a rare type has few rows) and a reference (the console's search, the audit).
  { name: 'transactions_type_idx', on: 'transactions (account_id, livemode, type, seq desc)' },
  { name: 'transactions_reference_id_idx', on: 'transactions (reference_id) where reference_id is not null' },
  { name: 'console_users_account_idx', on: 'console_users (account_id)' },
  { name: 'console_audit_user_idx', on: 'console_audit (console_user_id)' },
  { name: 'oauth_authorizations_client_idx', on: 'oauth_authorizations (client_id)' },
  { name: 'oauth_authorizations_user_idx', on: 'oauth_authorizations (console_user_id)' },
  { name: 'oauth_authorizations_grant_idx', on: 'oauth_authorizations (grant_id)' },
  { name: 'oauth_grants_client_idx', on: 'oauth_grants (client_id)' },
  { name: 'oauth_grants_user_idx', on: 'oauth_grants (console_user_id)' },
  { name: 'oauth_grants_account_idx', on: 'oauth_grants (account_id)' },
  { name: 'email_deliveries_account_idx', on: 'email_deliveries (account_id)' },
  {
    name: 'receipts_invoice_document_idx',
    on: 'receipts (invoice_document_id) where invoice_document_id is not null',
  },
  { name: 'global_invoices_account_idx', on: 'global_invoices (account_id)' },
  { name: 'balance_alerts_account_idx', on: 'balance_alerts (account_id)' },
  // The ledger audit's stale reservations: only documents still waiting for an outcome (a handful at any time).
  { name: 'documents_reserved_idx', on: "documents (created_at) where reservation_state = 'reserved'" },
  // The console's search by a UUID's first characters: `uuid like 'X%'` uses a btree only in the C collation or with
  // the pattern operators (a whole UUID is an equality on documents_uuid_idx).
  { name: 'documents_uuid_prefix_idx', on: 'documents (uuid text_pattern_ops) where uuid is not null' },
  // The receivables page ages the open invoices of its largest receivers (receivable_totals): those rows only.
  {
    name: 'documents_open_receivable_idx',
    on: `documents (account_id, livemode, (receiver->>'rfc')) where type = 'invoice'
      and coalesce(kind, '') <> 'credit_note' and metodo_pago = 'PPD'
      and status in ('stamped', 'cancel_pending') and saldo_pendiente > 0`,
  },
];

/**
 * Builds the missing ones, each concurrently (outside any transaction). A build interrupted earlier leaves an
 * invalid index behind: it is dropped and built again.
 */
export async function buildConcurrentIndexes(client: Client): Promise<string[]> {
  const built: string[] = [];
  for (const index of concurrentIndexes) {
    const found = await client.query<{ valid: boolean }>(
      `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname = $1 and c.relnamespace = current_schema()::regnamespace`,
      [index.name],
    );
    if (found.rows[0]?.valid) continue;
    if (found.rows[0]) await client.query(`drop index concurrently ${index.name}`);
    await client.query(`create index concurrently ${index.name} on ${index.on}`);
    built.push(index.name);
  }
  return built;
}

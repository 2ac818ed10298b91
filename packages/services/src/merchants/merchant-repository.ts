/**
 * The merchants aggregate's SQL (merchants and their CSDs), parameters bound by the driver. Services call these
 * functions and never write SQL on these tables themselves.
 */
import type { EntityManager } from '@cfdi/db';
import type { Periodicidad } from '../receipts/global-period';
import type { Scope, Tenant } from '../scope';
import {
  Conditions,
  countedPage,
  keysetPage,
  type CountedPage,
  type ListWindow,
  type Page,
  type PageRequest,
} from '../pagination';
import { anyRow, firstRow } from '../sql';

/** A merchant joined with its CSD metadata (never the key material). */
export interface MerchantRow {
  id: string;
  account_id: string;
  livemode: boolean;
  rfc: string;
  legal_name: string;
  regimen_fiscal: string;
  zip: string;
  serie: string;
  default_clave_prod_serv: string | null;
  default_clave_unidad: string | null;
  registro_patronal: string | null;
  border_region_stimulus: boolean;
  auto_email: boolean;
  email_copy_to: string[];
  global_invoice_enabled: boolean;
  global_invoice_periodicity: Periodicidad;
  receipt_grace_days: number;
  logo_key: string | null;
  brand_color: string | null;
  pdf_note: string | null;
  deleted_at: Date | string | null;
  created_at: Date | string;
  csd_serial_number: string | null;
  csd_rfc: string | null;
  csd_valid_from: Date | string | null;
  csd_valid_to: Date | string | null;
  csd_registered_with_pac: boolean | null;
  csd_updated_at: Date | string | null;
}

const MERCHANT_SELECT = `
  select m.id, m.account_id, m.livemode, m.rfc, m.legal_name, m.regimen_fiscal, m.zip, m.serie,
         m.default_clave_prod_serv, m.default_clave_unidad, m.registro_patronal, m.border_region_stimulus, m.auto_email, m.email_copy_to,
         m.global_invoice_enabled, m.global_invoice_periodicity, m.receipt_grace_days, m.logo_key, m.brand_color, m.pdf_note, m.deleted_at, m.created_at,
         c.serial_number as csd_serial_number, c.rfc as csd_rfc, c.valid_from as csd_valid_from,
         c.valid_to as csd_valid_to, c.registered_with_pac as csd_registered_with_pac, c.updated_at as csd_updated_at
    from merchants m left join merchant_csds c on c.merchant_id = m.id`;

/** The merchant in the tenant (deleted ones only with `includeDeleted`), or undefined. */
export async function selectMerchant(
  em: EntityManager,
  scope: Tenant,
  id: string,
  includeDeleted = false,
): Promise<MerchantRow | undefined> {
  return firstRow<MerchantRow>(
    em,
    `${MERCHANT_SELECT} where m.id = ? and m.account_id = ? and m.livemode = ?${includeDeleted ? '' : ' and m.deleted_at is null'}`,
    [id, scope.accountId, scope.livemode],
  );
}

/** The columns a new merchant is inserted with, in the table's names. */
export type MerchantInsert = Omit<
  MerchantRow,
  'account_id' | 'livemode' | 'logo_key' | 'deleted_at' | 'created_at' | `csd_${string}`
>;

export async function insertMerchant(em: EntityManager, scope: Tenant, row: MerchantInsert): Promise<void> {
  await em.execute(
    `insert into merchants (id, account_id, livemode, rfc, legal_name, regimen_fiscal, zip, serie, default_clave_prod_serv, default_clave_unidad,
       registro_patronal, border_region_stimulus, auto_email, email_copy_to, global_invoice_enabled,
       global_invoice_periodicity, receipt_grace_days, brand_color, pdf_note)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?, ?)`,
    [
      row.id,
      scope.accountId,
      scope.livemode,
      row.rfc,
      row.legal_name,
      row.regimen_fiscal,
      row.zip,
      row.serie,
      row.default_clave_prod_serv,
      row.default_clave_unidad,
      row.registro_patronal,
      row.border_region_stimulus,
      row.auto_email,
      row.email_copy_to,
      row.global_invoice_enabled,
      row.global_invoice_periodicity,
      row.receipt_grace_days,
      row.brand_color,
      row.pdf_note,
    ],
  );
}

/** The columns an update may set (the RFC never changes). */
export type MerchantColumn = Exclude<keyof MerchantInsert, 'id' | 'rfc'>;

/** Sets the columns of a live merchant; false when it is absent or deleted. */
export async function updateMerchantColumns(
  em: EntityManager,
  scope: Tenant,
  id: string,
  sets: [MerchantColumn, unknown][],
): Promise<boolean> {
  return anyRow(
    em,
    `update merchants set ${sets.map(([column]) => `${column} = ?`).join(', ')}, updated_at = now()
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning id`,
    [...sets.map(([, value]) => value), id, scope.accountId, scope.livemode],
  );
}

/** Soft delete; false when the merchant is absent or already deleted. */
export async function softDeleteMerchant(em: EntityManager, scope: Tenant, id: string): Promise<boolean> {
  return anyRow(
    em,
    `update merchants set deleted_at = now(), updated_at = now()
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning id`,
    [id, scope.accountId, scope.livemode],
  );
}

/**
 * One keyset page of the scope's live merchants, newest first. Deleted merchants still count as cursors (the
 * helper checks account and mode only): deleting the last item of a page must not break the next page.
 */
export function merchantKeysetPage(
  em: EntityManager,
  scope: Pick<Scope, 'accountId' | 'livemode' | 'merchantIds'>,
  page: PageRequest,
): Promise<Page<MerchantRow>> {
  const where = new Conditions().add('m.deleted_at is null');
  if (scope.merchantIds) where.add('m.id = any(?)', scope.merchantIds);
  return keysetPage<MerchantRow>(
    em,
    { select: MERCHANT_SELECT, table: 'merchants', alias: 'm', scope, where, noun: 'merchant' },
    page,
  );
}

/** One numbered page of the scope's live merchants by legal name, and how many there are. */
export function merchantCountedPage(
  em: EntityManager,
  scope: Pick<Scope, 'accountId' | 'livemode' | 'merchantIds'>,
  window: ListWindow,
): Promise<CountedPage<MerchantRow>> {
  const params: unknown[] = [scope.accountId, scope.livemode];
  let where = 'm.account_id = ? and m.livemode = ? and m.deleted_at is null';
  if (scope.merchantIds) {
    where += ' and m.id = any(?)';
    params.push(scope.merchantIds);
  }
  return countedPage<MerchantRow>(
    em,
    `${MERCHANT_SELECT} where ${where} order by m.legal_name, m.id`,
    params,
    window,
  );
}

export interface MerchantChoiceRow {
  id: string;
  account_id: string;
  rfc: string;
  legal_name: string;
  livemode: boolean;
}

/** The live merchants of the accounts, by legal name (at most 2,000). */
export function selectMerchantChoices(em: EntityManager, accountIds: string[]): Promise<MerchantChoiceRow[]> {
  return em.execute(
    'select id, account_id, rfc, legal_name, livemode from merchants where account_id = any(?) and deleted_at is null order by legal_name, id limit 2000',
    [accountIds],
  );
}

export async function setMerchantLogoKey(
  em: EntityManager,
  merchantId: string,
  key: string | null,
): Promise<void> {
  await em.execute('update merchants set logo_key = ?, updated_at = now() where id = ?', [key, merchantId]);
}

/** The merchant's logo key, deleted merchants included (their documents are still rendered). */
export async function selectMerchantLogoKey(
  em: EntityManager,
  scope: Tenant,
  merchantId: string,
): Promise<string | null> {
  const rows: { logo_key: string | null }[] = await em.execute(
    'select logo_key from merchants where id = ? and account_id = ? and livemode = ?',
    [merchantId, scope.accountId, scope.livemode],
  );
  return rows[0]?.logo_key ?? null;
}

export interface MerchantLookRow {
  logo_key: string | null;
  brand_color: string | null;
  pdf_note: string | null;
}

/** What the merchant's PDFs print of its own, deleted merchants included. */
export async function selectMerchantLook(
  em: EntityManager,
  scope: Tenant,
  merchantId: string,
): Promise<MerchantLookRow | undefined> {
  return firstRow<MerchantLookRow>(
    em,
    'select logo_key, brand_color, pdf_note from merchants where id = ? and account_id = ? and livemode = ?',
    [merchantId, scope.accountId, scope.livemode],
  );
}

/** A CSD as stored: the key and its password sealed with the master key. */
export interface CsdWrite {
  serial_number: string;
  rfc: string;
  valid_from: Date | string;
  valid_to: Date | string;
  certificate_der: Buffer;
  private_key_encrypted: string;
  password_encrypted: string;
}

/**
 * Stores the merchant's CSD in one INSERT … ON CONFLICT: `create` keeps an existing one (and returns false),
 * `replace` overwrites it. Selecting from merchants makes the write conditional on the merchant still existing
 * (not deleted meanwhile): false then too.
 */
export async function upsertMerchantCsd(
  em: EntityManager,
  scope: Tenant,
  merchantId: string,
  csd: CsdWrite,
  mode: 'create' | 'replace',
): Promise<boolean> {
  const onConflict =
    mode === 'create'
      ? 'do nothing'
      : `do update set serial_number = excluded.serial_number, rfc = excluded.rfc, valid_from = excluded.valid_from,
         valid_to = excluded.valid_to, certificate_der = excluded.certificate_der,
         private_key_encrypted = excluded.private_key_encrypted, password_encrypted = excluded.password_encrypted,
         registered_with_pac = excluded.registered_with_pac, updated_at = now()`;
  return anyRow(
    em,
    `insert into merchant_csds (merchant_id, serial_number, rfc, valid_from, valid_to, certificate_der,
                                private_key_encrypted, password_encrypted, registered_with_pac)
     select m.id, ?, ?, ?, ?, ?, ?, ?, true from merchants m
      where m.id = ? and m.account_id = ? and m.livemode = ? and m.deleted_at is null
     on conflict (merchant_id) ${onConflict}
     returning merchant_id`,
    [
      csd.serial_number,
      csd.rfc,
      csd.valid_from,
      csd.valid_to,
      csd.certificate_der,
      csd.private_key_encrypted,
      csd.password_encrypted,
      merchantId,
      scope.accountId,
      scope.livemode,
    ],
  );
}

export interface SigningCsdRow {
  certificate_der: Buffer;
  private_key_encrypted: string;
  password_encrypted: string;
  serial_number: string;
  valid_to: Date | string;
}

export async function selectSigningCsd(
  em: EntityManager,
  merchantId: string,
): Promise<SigningCsdRow | undefined> {
  return firstRow<SigningCsdRow>(
    em,
    'select certificate_der, private_key_encrypted, password_encrypted, serial_number, valid_to from merchant_csds where merchant_id = ?',
    [merchantId],
  );
}

/** Which of these ids are live merchants of the tenant. */
export async function liveMerchantIdsAmong(
  em: EntityManager,
  scope: Tenant,
  ids: string[],
): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    'select id from merchants where account_id = ? and livemode = ? and id = any(?) and deleted_at is null',
    [scope.accountId, scope.livemode, ids],
  );
  return rows.map((row) => row.id);
}

/** Which of these ids are merchants of the account (either mode, deleted ones included). */
export async function merchantIdsOfAccount(
  em: EntityManager,
  accountId: string,
  ids: string[],
): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    'select id from merchants where account_id = ? and id = any(?)',
    [accountId, ids],
  );
  return rows.map((row) => row.id);
}

/** The tenant's live merchants' names, by id. */
export function selectLiveMerchantNames(
  em: EntityManager,
  scope: Tenant,
): Promise<{ id: string; rfc: string; legal_name: string }[]> {
  return em.execute(
    'select id, rfc, legal_name from merchants where account_id = ? and livemode = ? and deleted_at is null order by id',
    [scope.accountId, scope.livemode],
  );
}

/** The addresses copied on every e-mail of the merchant's documents (deleted merchants included). */
export async function selectMerchantCopyTo(em: EntityManager, merchantId: string): Promise<string[]> {
  const rows: { email_copy_to: string[] }[] = await em.execute(
    'select email_copy_to from merchants where id = ?',
    [merchantId],
  );
  return rows[0]?.email_copy_to ?? [];
}

/** What an e-mail of the merchant's documents names it by (deleted merchants included). */
export async function selectMerchantLetterhead(
  em: EntityManager,
  merchantId: string,
): Promise<{ legal_name: string; rfc: string; logo_key: string | null } | undefined> {
  return firstRow<{ legal_name: string; rfc: string; logo_key: string | null }>(
    em,
    'select legal_name, rfc, logo_key from merchants where id = ?',
    [merchantId],
  );
}

/** The serial of the merchant's current CSD (the key of the worker's opened-key cache), or null. */
export async function selectCsdSerial(em: EntityManager, merchantId: string): Promise<string | null> {
  const rows: { serial_number: string }[] = await em.execute(
    'select serial_number from merchant_csds where merchant_id = ?',
    [merchantId],
  );
  return rows[0]?.serial_number ?? null;
}

/** The merchant's zip (its LugarExpedicion, and a global invoice's receiver's), deleted merchants included. */
export async function selectMerchantZip(em: EntityManager, merchantId: string): Promise<string | undefined> {
  const rows: { zip: string }[] = await em.execute('select zip from merchants where id = ?', [merchantId]);
  return rows[0]?.zip;
}

export interface ReceiptSettingsRow {
  receipt_grace_days: number;
  global_invoice_enabled: boolean;
  global_invoice_periodicity: Periodicidad;
}

/** What a new receipt's expiry depends on, deleted merchants included. */
export async function selectReceiptSettings(
  em: EntityManager,
  merchantId: string,
): Promise<ReceiptSettingsRow | undefined> {
  return firstRow<ReceiptSettingsRow>(
    em,
    'select receipt_grace_days, global_invoice_enabled, global_invoice_periodicity from merchants where id = ?',
    [merchantId],
  );
}

/** The same settings of a merchant not deleted, as its global invoice's schedule reads them. */
export async function selectGlobalInvoiceSettings(
  em: EntityManager,
  merchantId: string,
): Promise<ReceiptSettingsRow | undefined> {
  return firstRow<ReceiptSettingsRow>(
    em,
    `select global_invoice_enabled, global_invoice_periodicity, receipt_grace_days from merchants
      where id = ? and deleted_at is null`,
    [merchantId],
  );
}

export interface GlobalInvoiceMerchantRow {
  id: string;
  account_id: string;
  livemode: boolean;
  global_invoice_enabled: boolean;
  deleted_at: Date | null;
}

/** The merchants whose global invoice is on (not deleted), or, given `ids`, those merchants in any state. */
export function selectGlobalInvoiceMerchants(
  em: EntityManager,
  ids: string[] | undefined,
): Promise<GlobalInvoiceMerchantRow[]> {
  return em.execute(
    `select id, account_id, livemode, global_invoice_enabled, deleted_at from merchants
      where ${ids ? 'id = any(?::text[])' : 'global_invoice_enabled and deleted_at is null'} order by id`,
    ids ? [ids] : [],
  );
}

import { checkCustomerRecord, type CatalogLookup } from '@cfdi/cfdi';
import { newId, type EntityManager } from '@cfdi/db';
import { Conditions, listAnswer, type ListAnswer, type PageRequest, type RowCount } from '../pagination';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import {
  assertMayCreate,
  containing,
  deleteRecord,
  findRecord,
  insertRecord,
  countRecords,
  listRecords,
  rejectIssues,
  updateRecord,
  type RecordTable,
} from './record-store';

/** A customer's postal address (shown on nothing fiscal: the CFDI carries only the zip). */
export interface CustomerAddress {
  street?: string;
  exterior?: string;
  interior?: string;
  neighborhood?: string;
  city?: string;
  municipality?: string;
  state?: string;
  country?: string;
  zip?: string;
}

export type CustomerLocale = 'es' | 'en';

/** POST /v1/customers after schema validation. */
export interface CustomerCreate {
  rfc: string;
  legalName: string;
  regimenFiscal: string;
  zip: string;
  /** The documents' usoCfdi when they do not send one. */
  usoCfdi?: string | null;
  emails?: string[];
  /** The language of the e-mails sent to this customer; default `es`. */
  locale?: CustomerLocale;
  /** Send the CFDI on stamp and cancellation; null follows the merchant's setting. */
  autoEmail?: boolean | null;
  address?: CustomerAddress | null;
}

export type CustomerUpdate = Partial<CustomerCreate>;

export interface CustomerView {
  id: string;
  object: 'customer';
  livemode: boolean;
  rfc: string;
  legalName: string;
  regimenFiscal: string;
  zip: string;
  usoCfdi: string | null;
  emails: string[];
  locale: CustomerLocale;
  autoEmail: boolean | null;
  address: CustomerAddress | null;
  createdAt: string;
  updatedAt: string;
}

export interface CustomerRow {
  id: string;
  livemode: boolean;
  rfc: string;
  legal_name: string;
  regimen_fiscal: string;
  zip: string;
  uso_cfdi: string | null;
  emails: string[];
  locale: CustomerLocale;
  auto_email: boolean | null;
  address: CustomerAddress | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** What saving a record needs: the database and the SAT catalogs its fields are checked against. */
export interface RecordContext {
  em: EntityManager;
  catalogs: { index(): Promise<unknown>; lookup: CatalogLookup };
}

const CUSTOMERS: RecordTable = { table: 'customers', noun: 'customer' };

export function toCustomerView(row: CustomerRow): CustomerView {
  return {
    id: row.id,
    object: 'customer',
    livemode: row.livemode,
    rfc: row.rfc,
    legalName: row.legal_name,
    regimenFiscal: row.regimen_fiscal,
    zip: row.zip,
    usoCfdi: row.uso_cfdi,
    emails: row.emails,
    locale: row.locale,
    autoEmail: row.auto_email,
    address: row.address,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** The columns of the fields a create or update sets (`address` and `emails` as JSON). */
function columnsOf(input: CustomerUpdate): Record<string, unknown> {
  const columns: Record<string, unknown> = {
    rfc: input.rfc,
    legal_name: input.legalName,
    regimen_fiscal: input.regimenFiscal,
    zip: input.zip,
    uso_cfdi: input.usoCfdi,
    emails: input.emails === undefined ? undefined : JSON.stringify(input.emails),
    locale: input.locale,
    auto_email: input.autoEmail,
    address: input.address === undefined ? undefined : JSON.stringify(input.address),
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** The receiver rules on the record as it will be saved (a PATCH is checked merged with what it changes). */
function checkCustomer(ctx: RecordContext, customer: CustomerCreate): void {
  rejectIssues('customer', checkCustomerRecord(customer, ctx.catalogs.lookup));
}

export async function createCustomer(
  ctx: RecordContext,
  scope: Scope,
  input: CustomerCreate,
): Promise<CustomerView> {
  assertMayCreate(scope, 'customers');
  checkCustomer(ctx, input);
  return toCustomerView(
    await insertRecord<CustomerRow>(ctx.em, scope, CUSTOMERS, newId('cus'), columnsOf(input)),
  );
}

/** The live customer of the scope as a row (404 otherwise): for documents made from it. */
export const findCustomer = (em: EntityManager, scope: Scope, id: string) =>
  findRecord<CustomerRow>(em, scope, CUSTOMERS, id);

export async function retrieveCustomer(ctx: RecordContext, scope: Scope, id: string): Promise<CustomerView> {
  return toCustomerView(await findCustomer(ctx.em, scope, id));
}

export async function updateCustomer(
  ctx: RecordContext,
  scope: Scope,
  id: string,
  input: CustomerUpdate,
): Promise<CustomerView> {
  const current = toCustomerView(await findCustomer(ctx.em, scope, id));
  checkCustomer(ctx, { ...current, ...input });
  return toCustomerView(await updateRecord<CustomerRow>(ctx.em, scope, CUSTOMERS, id, columnsOf(input)));
}

export const deleteCustomer = (ctx: RecordContext, scope: Scope, id: string) =>
  deleteRecord(ctx.em, scope, CUSTOMERS, 'customer', id);

export interface CustomerListQuery extends PageRequest {
  /** Part of the RFC or of the legal name, any case. */
  q?: string;
  /** The exact RFC. */
  rfc?: string;
}

/** `offset`: the console's numbered pages (the API pages by `startingAfter` only). */
export async function listCustomers(
  ctx: RecordContext,
  scope: Scope,
  query: CustomerListQuery,
  offset = 0,
): Promise<ListAnswer<CustomerView>> {
  const page = await listRecords<CustomerRow>(ctx.em, scope, CUSTOMERS, customerConditions(query), {
    limit: query.limit,
    startingAfter: query.startingAfter,
    offset,
  });
  return listAnswer(page, toCustomerView);
}

/** How many customers the list query finds (capped, see COUNT_CAP): the console's count. */
export const countCustomers = (
  ctx: RecordContext,
  scope: Scope,
  query: Omit<CustomerListQuery, keyof PageRequest>,
): Promise<RowCount> => countRecords(ctx.em, scope, CUSTOMERS, customerConditions(query));

function customerConditions(query: Omit<CustomerListQuery, keyof PageRequest>): Conditions {
  const where = new Conditions();
  if (query.rfc) where.add('rfc = ?', query.rfc.toUpperCase());
  if (query.q) where.add('(rfc ilike ? or legal_name ilike ?)', containing(query.q), containing(query.q));
  return where;
}

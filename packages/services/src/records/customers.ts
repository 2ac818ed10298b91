import { checkCustomerRecord } from '@cfdi/cfdi';
import { Conditions, type PageRequest } from '../pagination';
import { isoTimestamp } from '../time';
import { containing, recordOperations, rejectIssues } from './record-store';

export type { RecordContext } from './record-store';

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

export interface CustomerFilters {
  /** Part of the RFC or of the legal name, any case. */
  q?: string;
  /** The exact RFC. */
  rfc?: string;
}

export type CustomerListQuery = PageRequest & CustomerFilters;

const customers = recordOperations<CustomerRow, CustomerView, CustomerCreate, CustomerFilters>({
  table: 'customers',
  noun: 'customer',
  object: 'customer',
  plural: 'customers',
  idPrefix: 'cus',
  defaults: {},
  toView: toCustomerView,
  columnsOf,
  conditions(query) {
    const where = new Conditions();
    if (query.rfc) where.add('rfc = ?', query.rfc.toUpperCase());
    if (query.q) where.add('(rfc ilike ? or legal_name ilike ?)', containing(query.q), containing(query.q));
    return where;
  },
  /** The receiver rules. */
  check(ctx, customer) {
    rejectIssues('customer', checkCustomerRecord(customer, ctx.catalogs.lookup));
  },
});

export const createCustomer = customers.create;
/** The live customer of the scope as a row (404 otherwise): for documents made from it. */
export const findCustomer = customers.find;
export const retrieveCustomer = customers.retrieve;
export const updateCustomer = customers.update;
export const deleteCustomer = customers.remove;
export const listCustomers = customers.list;
export const countCustomers = customers.count;

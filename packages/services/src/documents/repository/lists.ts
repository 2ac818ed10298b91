/** The API's lists and their filters. */
import type { EntityManager } from '@cfdi/db';
import { Conditions, keysetPage, type Page, type PageRequest } from '../../pagination';
import type { Scope } from '../../scope';
import { DOCUMENT_ID_PREFIX, type DocumentRow, type DocumentStatus, type DocumentType } from './rows';

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

/**
 * The scope's documents of a type, newest first, with every filter of the spec; `idRange` is the created_at range as
 * ids (ids begin with their creation time), which the key walk uses (there is no created_at index to walk).
 */
export function documentKeysetPage(
  em: EntityManager,
  scope: Scope,
  type: DocumentType,
  filters: DocumentFilters,
  idRange: { from: string | null; to: string | null },
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
  if (idRange.from) where.add('id >= ?', idRange.from);
  if (idRange.to) where.add('id < ?', idRange.to);
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

import type { Periodicidad } from '../receipts/global-period';
import type { MerchantRow } from './merchant-repository';
import { isoTimestamp } from '../time';

export interface CsdView {
  object: 'csd';
  /** The 20-digit NoCertificado (the certificate serial read as ASCII digits). */
  serialNumber: string;
  rfc: string;
  validFrom: string;
  validTo: string;
  status: 'active' | 'expired';
  registeredWithPac: boolean;
  updatedAt: string;
}

export interface MerchantView {
  id: string;
  object: 'merchant';
  livemode: boolean;
  rfc: string;
  legalName: string;
  regimenFiscal: string;
  zip: string;
  serie: string;
  defaultClaveProdServ: string | null;
  defaultClaveUnidad: string | null;
  registroPatronal: string | null;
  /** Registered in the border-region stimulus: may invoice IVA at 8 %. */
  borderRegionStimulus: boolean;
  /** Sends each stamped document, and each cancellation with its acuse, by e-mail on its own. */
  autoEmail: boolean;
  /** Addresses that get a copy of every e-mail of this merchant's documents. */
  emailCopyTo: string[];
  /** The automatic global invoice of the merchant's receipts (see dueGlobalPeriods). */
  globalInvoice: { enabled: boolean; periodicity: Periodicidad };
  /** Days a receipt stays self-invoiceable after its period, and the global run waits. */
  receiptGraceDays: number;
  csd: CsdView | null;
  logoUrl: string | null;
  /** `#rrggbb` of the PDFs' titles, rules and table headers and the portal's accent; null for the default. */
  brandColor: string | null;
  /** Printed as typed at the foot of every PDF; null for none. */
  pdfNote: string | null;
  createdAt: string;
}

/** What views need besides the row: a clock (CSD status) and the file-URL signer (logo). */
export interface ViewContext {
  now: () => Date;
  fileUrls: { url(key: string): string };
}

export function toCsdView(row: MerchantRow, now: Date): CsdView | null {
  if (row.csd_serial_number === null) return null;
  const validTo = isoTimestamp(row.csd_valid_to!);
  return {
    object: 'csd',
    serialNumber: row.csd_serial_number,
    rfc: row.csd_rfc!,
    validFrom: isoTimestamp(row.csd_valid_from!),
    validTo,
    // Derived at read time so it flips exactly when validTo passes, with no job to run.
    status: new Date(validTo).getTime() < now.getTime() ? 'expired' : 'active',
    registeredWithPac: row.csd_registered_with_pac!,
    updatedAt: isoTimestamp(row.csd_updated_at!),
  };
}

/** The merchant as the issuer of its CFDIs: what its view shows and what stamping reads. */
export type MerchantIssuer = Pick<
  MerchantView,
  | 'rfc'
  | 'legalName'
  | 'regimenFiscal'
  | 'zip'
  | 'serie'
  | 'defaultClaveProdServ'
  | 'defaultClaveUnidad'
  | 'registroPatronal'
  | 'borderRegionStimulus'
>;

export function toMerchantIssuer(row: MerchantRow): MerchantIssuer {
  return {
    rfc: row.rfc,
    legalName: row.legal_name,
    regimenFiscal: row.regimen_fiscal,
    zip: row.zip,
    serie: row.serie,
    defaultClaveProdServ: row.default_clave_prod_serv,
    defaultClaveUnidad: row.default_clave_unidad,
    registroPatronal: row.registro_patronal,
    borderRegionStimulus: row.border_region_stimulus,
  };
}

export function toMerchantView(row: MerchantRow, ctx: ViewContext): MerchantView {
  return {
    id: row.id,
    object: 'merchant',
    livemode: row.livemode,
    ...toMerchantIssuer(row),
    autoEmail: row.auto_email,
    emailCopyTo: row.email_copy_to,
    globalInvoice: { enabled: row.global_invoice_enabled, periodicity: row.global_invoice_periodicity },
    receiptGraceDays: row.receipt_grace_days,
    csd: toCsdView(row, ctx.now()),
    logoUrl: row.logo_key ? ctx.fileUrls.url(row.logo_key) : null,
    brandColor: row.brand_color,
    pdfNote: row.pdf_note,
    createdAt: isoTimestamp(row.created_at),
  };
}

/**
 * Full API. Everything that needs Node built-ins or heavy dependencies (crypto, pdfkit, qrcode,
 * archiver, xmldom) is here; `./pure` re-exports the part that runs anywhere, e.g. inside a
 * Temporal workflow sandbox.
 */
export * from './pure';

// XML builders (unsigned documents)
export { buildInvoiceXml, buildCreditNoteXml, globalReceiver, type BuiltDocument } from './xml/invoice';
export { buildPaymentXml, type BuiltPayment } from './xml/payment';
export { buildTrasladoXml, type BuiltTraslado } from './xml/traslado';
export { buildNominaXml, type BuiltNomina } from './xml/nomina';
export {
  buildRetentionXml,
  retentionTotals,
  RETENCIONES_SCHEMA_LOCATION,
  type BuiltRetention,
} from './retenciones/build';
export { installmentTaxGroups, invoiceTaxGroups } from './xml/invoice-tax-groups';
export { cfdiRelacionados } from './xml/cfdi-relacionados';
export { rootAttributes } from './xml/root-attributes';
export { loadXmldom } from './xml/dom';

// Cadena original, seal, certificates
export { cadenaOriginal } from './cadena/cadena-original';
export { formatFecha, yearMonthAt } from './time/fecha';
export {
  inspectCertificate,
  keyMatchesCertificate,
  noCertificadoFromSerial,
  type CertificateInfo,
} from './seal/certificate';
export { checkCsdPair, type CsdPairCheck, type CsdProblem, type CsdProblemCode } from './seal/csd-pair';
export { openPrivateKey } from './seal/private-key';
export {
  sealXml,
  signCadena,
  verifySeal,
  type Csd,
  type SealResult,
  type SealVerification,
} from './seal/seal';

// Timbre Fiscal Digital 1.1
export {
  appendTfd,
  buildTfd,
  parseTfd,
  tfdCadena,
  type BuildTfdInput,
  type BuiltTfd,
  type Tfd,
} from './tfd/tfd';

// Printed representation
export { verificationUrlFromXml } from './qr/verification-url-from-xml';
export { PREVIEW_MARK, renderPdf, type PdfLook, type RenderPdfOptions } from './pdf/render-pdf';
export { renderTicketPdf, ticketText, TICKET_COLUMNS, type TicketView } from './pdf/receipt-ticket';
export { buildZip, cfdiZipEntries, zipStream, type ZipEntry } from './zip/build-zip';
export { zipEntryBytes, zipEnd, ZIP_MAX_ENTRIES, type ZipEntryBytes } from './zip/zip-parts';

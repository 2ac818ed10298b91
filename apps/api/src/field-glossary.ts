/**
 * What a field means, by its name, for the fields that mean the same wherever they appear (a CFDI's `formaPago` is
 * the same c_FormaPago key in an invoice, a payment and a filter). The OpenAPI document and the MCP listing give a
 * property or parameter its entry here when its schema says nothing of its own; a field whose meaning depends on
 * where it is (`status`, `code`, `total`…) is described in its schema instead.
 */
export const FIELD_GLOSSARY: Readonly<Record<string, string>> = {
  // Every object
  id: 'The id, prefixed by the object type (inv_…, pay_…, cus_…)',
  object: 'The type of the object, always the value shown',
  livemode:
    'true in live mode (sk_live_ keys, real SAT stamps), false in test mode (sk_test_ keys, sandbox PAC)',
  deleted: 'Always true: the object is deleted',
  createdFrom: 'Created at or after this instant (ISO 8601)',
  createdTo: 'Created before this instant (ISO 8601)',
  // Parties
  merchantId: 'A merchant (issuer) of the account: mch_…',
  customerId: 'A saved customer (cus_…)',
  invoiceId: 'An invoice (inv_…)',
  documentId: 'The document (inv_…, pay_…, nom_…) the object belongs to',
  legalName: 'Registered name in capitals, without the corporate-type suffix (SA DE CV…)',
  regimenFiscal: 'c_RegimenFiscal key (3 digits) valid for the RFC’s person type, e.g. 601, 612, 626',
  zip: 'Postal code, 5 digits',
  street: 'Street',
  city: 'City',
  state: 'State',
  curp: 'The employee’s CURP (18 characters)',
  address: 'Postal address; null when none is saved',
  receiver: 'The receiver (Receptor) of the CFDI',
  // CFDI fields
  uuid: 'Folio fiscal: the UUID of the SAT timbre',
  uuids: 'Folios fiscales (UUIDs) of the related CFDIs',
  serie: 'Serie of the folio, printed before it (e.g. A)',
  folio: 'Folio number within the serie',
  folioText: 'Display folio given on create, printed instead of the numeric folio; null when none',
  formaPago:
    'c_FormaPago key: how it is paid (01 cash, 03 transfer, 04 credit card, 28 debit card, 99 to be defined)',
  metodoPago:
    'c_MetodoPago: PUE paid at once, PPD in installments or later (then a payment complement per payment)',
  usoCfdi:
    'c_UsoCFDI key: what the receiver uses the CFDI for (G01 merchandise, G03 expenses, S01 no fiscal effect, CP01 payments, CN01 payroll)',
  currency: 'c_Moneda (ISO 4217) code of the amounts: MXN unless the invoice says otherwise',
  tipoRelacion:
    'c_TipoRelacion key of the relation: 01 credit note, 03 return, 04 replacement, 07 advance applied',
  relatedInvoiceId: 'The invoice (inv_…) this credit note relates to',
  relatedUuid: 'Folio fiscal (UUID) of the related CFDI',
  relatedDocuments: 'CfdiRelacionados: the CFDIs this one relates to, by c_TipoRelacion',
  items: 'Conceptos: the lines of the document (1 to 500)',
  productCode: 'c_ClaveProdServ key (8 digits): what is sold',
  unitCode: 'c_ClaveUnidad key: the unit of measure (H87 piece, E48 service unit, KGM kilogram)',
  unit: 'Unidad printed beside the quantity (e.g. Pieza)',
  unitName: 'Unidad printed beside the quantity (e.g. Pieza); null when none',
  quantity: 'Cantidad, up to 6 decimals',
  unitPrice: 'ValorUnitario in the currency, up to 6 decimals; with pricesIncludeTax, including IVA and IEPS',
  price: 'Unit price in MXN, up to 6 decimals',
  pricesIncludeTax:
    'Whether prices include IVA and IEPS (taken out of them); default true, or the saved products’ setting',
  ivaRate: 'IVA rate: 0.16 (default), 0.08 (border-region merchants only) or 0',
  iepsRate: 'IEPS rate of c_TasaOCuota (e.g. 0.08, 0.265); none when absent or null',
  taxable: 'false marks the line exempt of IVA (ObjetoImp 02 with an Exento traslado); default true',
  pedimentos: 'Customs import numbers (NumeroPedimento) of imported goods',
  sku: 'Your own product code, printed as NoIdentificacion',
  shipping:
    "Shipping charged as one more line of the document: its amount in the invoice's currency, ivaRate, productCode and unitCode as an item's",
  cartDiscount: 'A discount on the whole document in MXN, spread over its lines',
  informacionGlobal:
    'InformacionGlobal of a global invoice (RFC XAXX010101000): periodicidad 01 daily, 02 weekly, 03 fortnightly, 04 monthly, 05 bimonthly; meses 01-12 a month, 13-18 a bimester; anio',
  periodicidad:
    'c_Periodicidad of the global invoice: 01 daily, 02 weekly, 03 fortnightly, 04 monthly, 05 bimonthly',
  meses: 'c_Meses: the month (01-12) or bimester (13-18) the global invoice covers',
  anio: 'The year the global invoice covers',
  subtotal: 'SubTotal in MXN: the lines before discounts and taxes',
  discount: 'Descuento in MXN',
  saldoPendiente: 'What is still owed on a PPD invoice, in its currency; null for PUE',
  stampedAt: 'When the SAT timbre was obtained (ISO 8601 UTC); null until stamped',
  needsReconciliation:
    'true while the PAC’s answer was lost (timeout, reset) and an operator must decide whether it was stamped',
  failure: 'Why stamping failed (code and message from the PAC or the SAT); null otherwise',
  cancellation: 'The cancellation request and the SAT’s acuse; null while none was asked',
  files: 'The XML, PDF and ZIP of the stamped document, behind signed URLs valid 15 minutes',
  xmlUrl: 'Signed URL of the stamped XML, valid 15 minutes',
  pdfUrl: 'Signed URL of the PDF, valid 15 minutes',
  zipUrl: 'Signed URL of a ZIP with the XML and the PDF, valid 15 minutes',
  motivo:
    'c_MotivoCancelacion: 01 with relation, 02 without relation, 03 not carried out, 04 in a global invoice',
  folioSustitucion: 'Motivo 01: the folio fiscal (UUID) of the CFDI that replaces this one',
  requestedAt: 'When the cancellation was asked',
  resolvedAt: 'When the SAT answered the cancellation; null while pending',
  acuse: 'The SAT’s acuse of the cancellation; null until it answers',
  fecha: 'Date and time of the SAT’s acuse',
  rfcEmisor: 'RFC of the issuer the acuse names',
  // Payments (Pagos 2.0)
  monto: 'Amount received (Monto), in the payment’s currency (monedaP; MXN by default)',
  fechaPago: 'Date (and time) of the payment, Mexico City local time',
  numParcialidad: 'Installment number of the payment for this invoice (1, 2, …)',
  saldoAnterior: 'What was owed on the invoice before this payment (ImpSaldoAnt), in the invoice’s currency',
  saldoInsoluto:
    'What is still owed on the invoice after this payment (ImpSaldoInsoluto), in the invoice’s currency',
  impPagado:
    'What the payment takes off the invoice (ImpPagado), in the invoice’s currency and decimals; default monto × equivalenciaDR',
  monedaP: 'c_Moneda key of the money received (MonedaP), never XXX; default MXN',
  tipoCambioP: 'MXN per unit of monedaP on the payment date (TipoCambioP), up to 6 decimals; null for MXN',
  equivalenciaDR:
    'Units of the invoice’s currency per unit of monedaP (EquivalenciaDR), up to 10 decimals; 1 when they are the same',
  invoiceCurrency:
    'c_Moneda of the paid invoice (MonedaDR): saldoAnterior, impPagado and saldoInsoluto are in it',
  // Merchants
  defaultClaveProdServ: 'c_ClaveProdServ used by items that send none; null when none',
  defaultClaveUnidad: 'c_ClaveUnidad used by items that send none; null when none',
  registroPatronal: 'IMSS registro patronal of payroll receipts; null when none',
  borderRegionStimulus: 'Whether the merchant is in the border-region IVA stimulus (may use ivaRate 0.08)',
  autoEmail: 'Whether stamped documents and cancellations are e-mailed on their own',
  emailCopyTo: 'Addresses copied on every e-mail of the merchant’s documents',
  csd: 'The merchant’s CSD (certificate of the seal), null until one is uploaded',
  logoUrl: 'Signed URL of the logo printed on the PDFs, valid 15 minutes; null when none',
  brandColor:
    'Brand colour (#rrggbb) of the merchant’s PDFs and self-invoicing portal page; null for the default grey',
  pdfNote: 'Note printed as typed at the foot of every PDF of the merchant; null when none',
  registeredWithPac: 'Whether the PAC has the CSD and can stamp with it',
  emails: 'Addresses CFDIs are e-mailed to',
  locale: 'Language of the e-mails: es (default) or en',
  clave: 'The SAT catalog key',
  nombre: 'The SAT catalog description',
  simbolo: 'Symbol of the unit; null when the catalog gives none',
  fisica: 'Whether a persona física (13-character RFC) may use it',
  moral: 'Whether a persona moral (12-character RFC) may use it',
  // Payroll (Nómina 1.2)
  employee:
    'The employee: the Nómina 1.2 Receptor, fields named as its attributes (tipoContrato: TipoContrato, a c_TipoContrato key); a registroPatronal requires numSeguridadSocial, fechaInicioRelLaboral, riesgoPuesto and salarioDiarioIntegrado',
  period: 'The period paid: TipoNomina, dates and days',
  totals: 'The totals of the Nómina complement, MXN; null where the receipt has none',
  numEmpleado: 'The employer’s number for the employee',
  numSeguridadSocial: 'NSS, the IMSS social security number',
  departamento: 'Department the employee works in',
  puesto: 'Position of the employee',
  sindicalizado: 'Whether the employee is unionized',
  tipoContrato: 'c_TipoContrato key (01 indefinite, 02 for a specific work…)',
  tipoRegimen: 'c_TipoRegimen key (02 sueldos, 09 asimilados…)',
  periodicidadPago: 'c_PeriodicidadPago key (02 weekly, 04 fortnightly, 05 monthly…)',
  tipoNomina: 'O ordinary or E extraordinary',
  fechaInicialPago: 'First day of the period paid (YYYY-MM-DD)',
  fechaFinalPago: 'Last day of the period paid (YYYY-MM-DD)',
  numDiasPagados: 'Days paid in the period',
  percepciones:
    'Percepciones: what the employee earns; tipo c_TipoPercepcion, clave the employer’s own code, concepto the printed text; 019 (horas extra) needs horasExtra [{dias, tipoHoras 01|02|03, horasExtra, importePagado}], 045 accionesOTitulos {valorMercado, precioAlOtorgarse}',
  deducciones: 'Deducciones: what is withheld; tipo c_TipoDeduccion (002 ISR, 001 IMSS…)',
  otrosPagos:
    'OtrosPagos: other payments, tipo c_TipoOtroPago (002 subsidio para el empleo, with subsidioCausado ≥ importe; 004 with compensacionSaldosAFavor {saldoAFavor, anio, remanenteSalFav})',
  incapacidades: 'Incapacidades: sick or maternity leave in the period',
  concepto: 'Text of the concept as printed',
  dias: 'Days',
  horasExtra: 'Overtime hours worked (HorasExtra)',
  numAniosServicio: 'Years of service (for separation payments)',
  nominas: 'The payroll receipts, one per employee (1 to 1000)',
  totalPercepciones: 'TotalPercepciones',
  totalSueldos: 'TotalSueldos',
  totalSeparacionIndemnizacion: 'TotalSeparacionIndemnizacion',
  totalJubilacionPensionRetiro: 'TotalJubilacionPensionRetiro',
  totalGravado: 'TotalGravado of the percepciones',
  totalExento: 'TotalExento of the percepciones',
  totalDeducciones: 'TotalDeducciones',
  totalOtrasDeducciones: 'TotalOtrasDeducciones',
  totalImpuestosRetenidos: 'TotalImpuestosRetenidos (ISR withheld)',
  totalOtrosPagos: 'TotalOtrosPagos',
  // Billing
  balanceCentavos: 'Prepaid balance in centavos (MXN × 100)',
  pricePerTimbreCentavos: 'Price of one timbre in centavos',
  timbresRemaining: 'How many timbres the balance pays for at the current price',
  amountCentavos: 'Amount in centavos (MXN × 100)',
  deltaCentavos: 'Change to the balance in centavos: negative for a charge, positive for a credit',
  balanceAfterCentavos: 'The balance after this transaction, in centavos',
  referenceType: 'What caused the transaction (a document, a purchase…); null for manual corrections',
  referenceId: 'The id of what caused the transaction; null for manual corrections',
  note: 'Operator note of a manual correction; null otherwise',
  month: 'The calendar month (YYYY-MM, Mexico City)',
  timbres: 'Timbres used in the month',
  spentCentavos: 'What the month’s timbres cost, in centavos',
  purchaseId: 'The purchase (pur_…) the Checkout session pays',
  checkoutSessionId: 'The Stripe Checkout session id (cs_…)',
  failureReason: 'Why the purchase failed; null unless failed',
  // E-mails
  to: 'Recipient addresses',
  sentAt: 'When the SMTP server accepted it; null otherwise',
  failedAt: 'When it was given up; null otherwise',
  // Webhooks
  enabledEvents: 'Event types delivered to the endpoint, or "*" for all',
  disabled: 'Whether deliveries to the endpoint are stopped',
  eventId: 'The event (evt_…)',
  webhookEndpointId: 'The webhook endpoint (we_…)',
  webhookEndpointIds: 'The endpoints the event is delivered to again',
  redelivery: 'Whether the attempt was a redelivery asked through the API',
  succeeded: 'Whether the endpoint answered 2xx in time',
  durationMs: 'How long the attempt took, in milliseconds',
  // Lists and pages
  limit: 'How many objects to return at most',
  starting_after: 'Cursor: the last id of the previous page',
  // Readiness
  db: 'Whether PostgreSQL answered',
  redis: 'Whether Redis answered',
  // Foreign currency and exports (Comercio Exterior 2.0)
  moneda: 'c_Moneda key of the amounts; default MXN',
  tipoCambio: 'MXN per unit of moneda, up to 6 decimals',
  exportacion: 'c_Exportacion key: 01 not an export, 02 definitive export',
  comercioExterior: 'Comercio Exterior 2.0 of an export (exportacion 02)',
  cartaPorte: "Carta Porte 3.1 complement of a carrier's freight invoice (national motor transport)",
  residenciaFiscal: 'Foreign receiver: its country of tax residence (c_Pais)',
  numRegIdTrib: 'Foreign party: its tax id in its country',
  numeroExportadorConfiable: 'Approved exporter number (EU and EFTA exports)',
  observaciones: 'Remarks printed with the export data',
  emisor: 'The exporter (the issuer)',
  receptor: 'The foreign buyer (the receiver)',
  destinatarios: 'Consignees, when other than the receiver',
  domicilio: 'Address',
  domicilios: 'Addresses',
  mercancias: 'The goods exported, one per item with noIdentificacion',
  calle: 'Street',
  numeroExterior: 'Street number',
  numeroInterior: 'Unit or suite number',
  colonia: 'Neighbourhood (c_Colonia key in Mexico)',
  localidad: 'Locality (c_Localidad key in Mexico)',
  referencia: 'Directions to the address',
  municipio: 'Municipality (c_Municipio key in Mexico)',
  estado: 'State (c_Estado key in Mexico, the USA and Canada)',
  pais: 'Country (c_Pais key)',
  codigoPostal: 'Postal code',
  incoterm: 'c_INCOTERM key',
  numCertificadoOrigen: 'Certificate of origin number; null when none',
  tipoCambioUSD: 'MXN per USD',
  totalUSD: 'Total of the goods in USD',
};

/** Path parameters, described by name (an `id` parameter is the object the path names). */
const PARAMETER_GLOSSARY: Readonly<Record<string, string>> = {
  id: 'The id of the object the path names',
};

type Node = Record<string, unknown>;

/** Gives every undescribed property of a JSON schema (at any depth) its glossary entry, in a copy. */
export function describeFields(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(describeFields);
  if (typeof node !== 'object' || node === null) return node;
  const walked = Object.fromEntries(
    Object.entries(node as Node).map(([key, value]) => [key, describeFields(value)]),
  );
  const properties = walked.properties as Record<string, Node> | undefined;
  if (!properties || typeof properties !== 'object' || Array.isArray(properties)) return walked;
  return {
    ...walked,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, withDescription(name, schema)]),
    ),
  };
}

function withDescription(name: string, schema: Node): Node {
  if (typeof schema !== 'object' || schema === null || schema.description || schema.$ref) return schema;
  const description = FIELD_GLOSSARY[name];
  return description ? { ...schema, description } : schema;
}

/** An OpenAPI parameter with its glossary description when it has none. */
export function describeParameter<P extends { name: string; in: string; description?: string }>(
  parameter: P,
): P {
  if (parameter.description) return parameter;
  const description =
    (parameter.in === 'path' ? PARAMETER_GLOSSARY[parameter.name] : undefined) ??
    FIELD_GLOSSARY[parameter.name];
  return description ? { ...parameter, description } : parameter;
}

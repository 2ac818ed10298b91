import { isoTimestamp, isoTimestampOrNull } from '../time';
import {
  computeCartaPorte,
  computeComercioExterior,
  type CartaPorteInput,
  type CpUbicacion,
  type InvoiceInput,
  type RelatedDocuments,
} from '@cfdi/cfdi';
import { money, type DocumentRecord, type DocumentRow, type FilesStatus } from './document-row';

/** Turns a stored file key into a signed download URL (the API's @cfdi/storage signer). */
export interface DocumentUrlSigner {
  url(key: string): string;
}

export interface FilesView {
  status: FilesStatus;
  xmlUrl?: string;
  pdfUrl?: string;
  zipUrl?: string;
}

/**
 * URLs while the files are `ready`; when they `failed` to render on a download, the XML's URL is still given (the
 * stamped XML is always there to serve: file keys are set only on a document whose stamped XML is stored).
 */
function filesView(row: DocumentRecord, sign?: DocumentUrlSigner): FilesView {
  const view: FilesView = { status: row.files_status };
  if (row.files_status === 'failed' && row.files?.xml && sign) view.xmlUrl = sign.url(row.files.xml);
  if (row.files_status === 'ready' && row.files && sign) {
    if (row.files.xml) view.xmlUrl = sign.url(row.files.xml);
    if (row.files.pdf) view.pdfUrl = sign.url(row.files.pdf);
    if (row.files.zip) view.zipUrl = sign.url(row.files.zip);
  }
  return view;
}

export function cancellationView(
  row: DocumentRecord,
  sign?: DocumentUrlSigner,
): Record<string, unknown> | null {
  if (!row.cancellation) return null;
  const cancellation = structuredClone(row.cancellation) as { acuse?: { xmlKey?: string; xmlUrl?: string } };
  if (cancellation.acuse?.xmlKey) {
    if (sign) cancellation.acuse.xmlUrl = sign.url(cancellation.acuse.xmlKey);
    delete cancellation.acuse.xmlKey;
  }
  return cancellation;
}

/** What every stamped document (invoice or payment) reports about its files, cancellation, stamping and times. */
export function lifecycleView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  return {
    files: filesView(row, sign),
    cancellation: cancellationView(row, sign),
    needsReconciliation: row.needs_reconciliation,
    failure: row.status === 'stamp_failed' ? { code: row.sat_code, message: row.failure_detail } : null,
    stampedAt: isoTimestampOrNull(row.stamped_at),
    createdAt: isoTimestamp(row.created_at),
  };
}

/** The Invoice resource (also credit notes) exactly as api-spec.md lists it. */
export function toInvoiceView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  const creditNote = row.kind === 'credit_note';
  return {
    id: row.id,
    object: 'invoice' as const,
    livemode: row.livemode,
    status: row.status,
    kind: row.kind!,
    uuid: row.uuid,
    serie: row.serie,
    folio: row.folio === null ? null : Number(row.folio),
    folioText: row.folio_text,
    metodoPago: row.metodo_pago ?? 'PUE',
    formaPago: row.forma_pago ?? '',
    usoCfdi: row.uso_cfdi ?? '',
    currency: row.currency,
    subtotal: Number(row.subtotal),
    discount: Number(row.discount),
    total: Number(row.total),
    saldoPendiente: row.metodo_pago === 'PPD' && !creditNote ? money(row.saldo_pendiente) : null,
    ...(creditNote
      ? {
          tipoRelacion: row.tipo_relacion!,
          relatedUuid: row.related_uuid!,
          relatedInvoiceId: row.related_invoice_id,
        }
      : {}),
    ...(relatedDocumentsOf(row) ? { relatedDocuments: relatedDocumentsOf(row) } : {}),
    ...foreignTradeOf(row.input as TradeInput | null),
    ...cartaPorteField(row.input as CartaPorteHolder | null),
    receiver: row.receiver,
    customerId: row.customer_id ?? null,
    merchantId: row.merchant_id,
    ...lifecycleView(row, sign),
  };
}

export type InvoiceView = ReturnType<typeof toInvoiceView>;

/** The subset returned while a document is still `stamping` (202). */
export function toStampingView(row: DocumentRecord) {
  return {
    id: row.id,
    object: row.type,
    livemode: row.livemode,
    status: row.status,
    ...(row.type === 'invoice' ? { kind: row.kind } : {}),
    uuid: null,
    files: { status: 'pending' as const },
    stampedAt: null,
    createdAt: isoTimestamp(row.created_at),
  };
}

/** An export's complement in brief: what the invoice resource shows of it. */
export interface ExportSummary {
  incoterm: string | null;
  numCertificadoOrigen: string | null;
  tipoCambioUSD: number;
  totalUSD: number;
}

type TradeInput = Partial<InvoiceInput> & { exportSummary?: ExportSummary };

/**
 * A foreign-currency invoice's exchange rate and an export's complement in brief. `input` is the stored engine input,
 * or the record's trimmed copy (toDocumentRecord), which keeps only the summary.
 */
export function foreignTradeOf(input: TradeInput | null): {
  tipoCambio?: number;
  exportacion?: '02';
  comercioExterior?: ExportSummary;
} {
  const cce = input?.comercioExterior;
  const summary: ExportSummary | undefined =
    input?.exportSummary ??
    (cce && {
      incoterm: cce.incoterm ?? null,
      numCertificadoOrigen: cce.numCertificadoOrigen ?? null,
      tipoCambioUSD: Number(cce.tipoCambioUSD),
      totalUSD: Number(computeComercioExterior(cce).totalUSD),
    });
  return {
    ...(input?.tipoCambio ? { tipoCambio: Number(input.tipoCambio) } : {}),
    ...(summary ? { exportacion: '02' as const, comercioExterior: summary } : {}),
  };
}

/** The CfdiRelacionados an invoice was created with (relatedDocuments), as stored in its engine input. */
export function relatedDocumentsOf(row: Pick<DocumentRow, 'input'>): RelatedDocuments[] | undefined {
  return (row.input as { relatedDocuments?: RelatedDocuments[] } | null)?.relatedDocuments;
}

/** A stop of a Carta Porte in brief: where and when, and the km from the previous stop for a destination. */
export interface CartaPorteStop {
  idUbicacion: string;
  rfc: string;
  nombre: string | null;
  fechaHora: string;
  estado: string;
  codigoPostal: string;
  distanciaRecorrida: number | null;
}

/** A document's Carta Porte 3.1 in brief: what the invoice and traslado resources show of it. */
export interface CartaPorteSummary {
  idCCP: string;
  totalDistRec: number;
  pesoBrutoTotal: number;
  numTotalMercancias: number;
  /** The first stop (an Origen) and the last one (a Destino). */
  origin: CartaPorteStop;
  destination: CartaPorteStop;
  /** How many stops the trip has (origins and destinations). */
  stops: number;
}

/** The stored engine input (with `cartaPorte`) or the record's trimmed copy (with `cartaPorteSummary`). */
export type CartaPorteHolder = { cartaPorte?: CartaPorteInput; cartaPorteSummary?: CartaPorteSummary };

/** A freight invoice's `cartaPorte` summary; no field on an invoice that carries none. */
function cartaPorteField(input: CartaPorteHolder | null): { cartaPorte?: CartaPorteSummary } {
  const summary = cartaPorteOf(input);
  return summary ? { cartaPorte: summary } : {};
}

/** The Carta Porte summary of a document, or null when it carries none. */
export function cartaPorteOf(input: CartaPorteHolder | null): CartaPorteSummary | null {
  if (input?.cartaPorteSummary) return input.cartaPorteSummary;
  const cp = input?.cartaPorte;
  if (!cp) return null;
  const computed = computeCartaPorte(cp);
  const stop = (u: CpUbicacion, i: number): CartaPorteStop => ({
    idUbicacion: computed.idsUbicacion[i]!,
    rfc: u.rfc,
    nombre: u.nombre ?? null,
    fechaHora: u.fechaHora,
    estado: u.domicilio.estado,
    codigoPostal: u.domicilio.codigoPostal,
    distanciaRecorrida: u.distanciaRecorrida === undefined ? null : Number(u.distanciaRecorrida),
  });
  const last = cp.ubicaciones.length - 1;
  return {
    idCCP: cp.idCCP,
    totalDistRec: Number(computed.totalDistRec),
    pesoBrutoTotal: Number(computed.pesoBrutoTotal),
    numTotalMercancias: Number(computed.numTotalMercancias),
    origin: stop(cp.ubicaciones[0]!, 0),
    destination: stop(cp.ubicaciones[last]!, last),
    stops: cp.ubicaciones.length,
  };
}

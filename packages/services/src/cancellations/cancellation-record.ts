import type { DocumentRow } from '../documents';

export type Motivo = '01' | '02' | '03' | '04';

/** The SAT acuse as the resource shows it; `xmlKey` becomes a signed `xmlUrl` in cancellationView. */
export interface AcuseRecord {
  fecha: string;
  rfcEmisor: string;
  uuid: string;
  /** EstatusCancelacion the SAT reported with the answer ("Cancelado sin aceptación", "En proceso", …). */
  estatus: string;
  /** EstatusUUID: 201 request accepted, 202 already requested or cancelled. */
  codigo: string;
  xmlKey: string;
}

/** `documents.cancellation` (design.md Documents). */
export interface CancellationRecord {
  motivo: Motivo;
  folioSustitucion: string | null;
  /** pending: requested, awaiting the PAC or the receiver; accepted: cancelled; rejected: the receiver refused. */
  status: 'pending' | 'accepted' | 'rejected';
  requestedAt: string;
  resolvedAt: string | null;
  acuse: AcuseRecord | null;
}

/** A document row with the columns cancellations add (Migration20261121040000Cancellations). */
export type CancellableRow = DocumentRow & {
  cancellation: CancellationRecord | null;
  cancel_reservation_id: string | null;
  cancellation_previous: CancellationRecord | null;
};

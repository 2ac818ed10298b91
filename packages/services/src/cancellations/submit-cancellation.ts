import { formatFecha, type Csd } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { buildCancelacionXml, signCancelacion, type PacClient } from '@cfdi/pac';
import {
  documentFileKey,
  documentPac,
  loadDocumentById,
  type CsdLoader,
  type FilePutter,
} from '../documents';
import type { AcuseRecord, CancellableRow } from './cancellation-record';
import { classifyCancelResult, classifySatStatus, type CancellationProgress } from './classify-pac-answers';

export interface CancellationPacDeps {
  pac: { forMode(livemode: boolean): PacClient };
  loadCsd: CsdLoader;
  storage: FilePutter;
  now(): Date;
}

export type CancellationSubmission =
  | { outcome: 'cancelled' | 'pending'; acuse: AcuseRecord }
  | { outcome: 'refused'; code: string; message: string }
  | { outcome: 'retry'; detail: string };

const issuerRfc = (row: CancellableRow) => (row.input as { issuer: { rfc: string } }).issuer.rfc;

/**
 * Builds the SAT Cancelacion for the pending request, signs it with the merchant's CSD (the key never leaves this
 * process), sends it, and stores the acuse under the document. Safe to repeat: a second request for the same UUID
 * gets 202 with the current state, and the acuse key is per request (its reservation), so a retry overwrites it.
 */
export async function submitCancellation(
  em: EntityManager,
  deps: CancellationPacDeps,
  documentId: string,
): Promise<CancellationSubmission> {
  const row = (await loadDocumentById(em, documentId)) as CancellableRow;
  const request = row.cancellation;
  if (!request || request.status !== 'pending' || !row.uuid)
    throw new Error(`${documentId} has no pending cancellation request`);
  const csd: Csd = await deps.loadCsd(row);
  const unsigned = buildCancelacionXml({
    rfcEmisor: issuerRfc(row),
    fecha: formatFecha(deps.now()),
    folios: [
      {
        uuid: row.uuid,
        motivo: request.motivo,
        ...(request.folioSustitucion ? { folioSustitucion: request.folioSustitucion } : {}),
      },
    ],
  });
  const result = await documentPac(deps.pac.forMode(row.livemode), row).cancel(
    signCancelacion(unsigned, csd),
    {
      correlationId: documentId,
    },
  );
  const answer = classifyCancelResult(result, row.uuid);
  if (answer.outcome === 'refused' || answer.outcome === 'retry') return answer;

  const xmlKey = documentFileKey(row, `cancellation-${row.cancel_reservation_id}-acuse.xml`);
  await deps.storage.put(xmlKey, Buffer.from(answer.acuseXml, 'utf8'), 'application/xml');
  return {
    outcome: answer.outcome,
    acuse: {
      fecha: answer.fecha,
      rfcEmisor: answer.rfcEmisor,
      uuid: row.uuid,
      estatus: answer.estatus,
      codigo: answer.codigo,
      xmlKey,
    },
  };
}

/** The SAT status of a document awaiting its receiver's answer (a read: always safe to repeat). */
export async function cancellationProgress(
  em: EntityManager,
  deps: Pick<CancellationPacDeps, 'pac'>,
  documentId: string,
): Promise<CancellationProgress> {
  const row = (await loadDocumentById(em, documentId)) as CancellableRow;
  if (row.status !== 'cancel_pending') return row.status === 'cancelled' ? 'accepted' : 'rejected';
  const result = await deps.pac
    .forMode(row.livemode)
    .satStatus(
      { emisorRfc: issuerRfc(row), receptorRfc: row.receiver.rfc, total: row.total, uuid: row.uuid! },
      { correlationId: documentId },
    );
  return classifySatStatus(result);
}

import type { CancelResult, SatStatusResult } from '@cfdi/pac';

export type CancelAnswer =
  | {
      outcome: 'cancelled' | 'pending';
      fecha: string;
      rfcEmisor: string;
      codigo: string;
      estatus: string;
      acuseXml: string;
    }
  | { outcome: 'refused'; code: string; message: string }
  /** Nothing was decided (PAC down, or an answer that may or may not have been processed): safe to send again. */
  | { outcome: 'retry'; detail: string };

/** SAT EstatusUUID texts for the codes that refuse a request (cfdi40.md §8.3). */
const REFUSALS: Record<string, string> = {
  '203': 'the UUID does not belong to the issuer',
  '205': 'the SAT does not know this UUID (yet)',
  '207':
    'invalid motive or FolioSustitucion (motivo 01 needs a stamped replacement relating this CFDI with TipoRelacion 04)',
  '208': 'the period to cancel this CFDI has ended',
  no_cancelable:
    'documents in force relate to this CFDI (payment complements, credit notes); cancel them first',
};

const CANCELLED = /cancelado|plazo vencido/i;

/**
 * What a `cancel` answer means for one UUID. 201/202 are taken (202 = requested or cancelled before: resending a
 * request is harmless, the SAT answers with the current state); everything else per UUID refuses. An EstatusCancelacion
 * that does not say "cancelled" leaves the document pending, and the status query decides.
 */
export function classifyCancelResult(result: CancelResult, uuid: string): CancelAnswer {
  switch (result.outcome) {
    case 'submitted': {
      const folio =
        result.folios.find((f) => f.uuid.toUpperCase() === uuid.toUpperCase()) ?? result.folios[0];
      if (!folio) return { outcome: 'retry', detail: 'the PAC answered without folios' };
      if (folio.estatusUuid !== '201' && folio.estatusUuid !== '202') {
        return {
          outcome: 'refused',
          code: folio.estatusUuid,
          message: REFUSALS[folio.estatusUuid] ?? `the SAT answered EstatusUUID ${folio.estatusUuid}`,
        };
      }
      return {
        outcome: CANCELLED.test(folio.estatusCancelacion) ? 'cancelled' : 'pending',
        fecha: result.fecha,
        rfcEmisor: result.rfcEmisor,
        codigo: folio.estatusUuid,
        estatus: folio.estatusCancelacion,
        acuseXml: result.acuse,
      };
    }
    case 'rejected':
      return { outcome: 'refused', code: result.code, message: result.message };
    case 'unavailable':
    case 'ambiguous':
      return { outcome: 'retry', detail: `${result.outcome} (${result.reason}): ${result.detail}` };
  }
}

export type CancellationProgress = 'accepted' | 'rejected' | 'pending';

/**
 * The SAT status query for a document awaiting its receiver: Cancelado (accepted or the window passed) →
 * accepted; "Solicitud rechazada" → rejected; anything else, including an unreachable PAC, keeps waiting.
 */
export function classifySatStatus(result: SatStatusResult): CancellationProgress {
  if (result.outcome !== 'found') return 'pending';
  if (result.estado === 'Cancelado') return 'accepted';
  if (/rechazad/i.test(result.estatusCancelacion)) return 'rejected';
  return 'pending';
}

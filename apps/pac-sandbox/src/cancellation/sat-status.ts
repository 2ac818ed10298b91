import type { CancellationRecord, CancellationStatus } from '../storage/cancellations';

const ES_CANCELABLE = {
  sin: 'Cancelable sin aceptación',
  con: 'Cancelable con aceptación',
  no: 'No cancelable',
} as const;

export const ESTATUS_CANCELACION: Record<CancellationStatus, string> = {
  en_proceso: 'En proceso',
  rechazada: 'Solicitud rechazada',
  cancelado_sin_aceptacion: 'Cancelado sin aceptación',
  cancelado_con_aceptacion: 'Cancelado con aceptación',
  plazo_vencido: 'Plazo vencido',
};

export interface SatStatus {
  estado: 'Vigente' | 'Cancelado';
  esCancelable: string;
  estatusCancelacion: string;
}

const CANCELLED = new Set<CancellationStatus>([
  'cancelado_sin_aceptacion',
  'cancelado_con_aceptacion',
  'plazo_vencido',
]);

/**
 * The SAT consulta answer for a CFDI (cfdi40.md §8.4): only the combinations phpcfdi lists as
 * possible can come out of here.
 */
export function satStatusOf(
  cancellation: CancellationRecord | undefined,
  current: { hasValidReferrers: boolean; requiresAcceptance: boolean },
): SatStatus {
  if (!cancellation) {
    const esCancelable = current.hasValidReferrers
      ? ES_CANCELABLE.no
      : current.requiresAcceptance
        ? ES_CANCELABLE.con
        : ES_CANCELABLE.sin;
    return { estado: 'Vigente', esCancelable, estatusCancelacion: '' };
  }
  return {
    estado: CANCELLED.has(cancellation.status) ? 'Cancelado' : 'Vigente',
    esCancelable: cancellation.requiresAcceptance ? ES_CANCELABLE.con : ES_CANCELABLE.sin,
    estatusCancelacion: ESTATUS_CANCELACION[cancellation.status],
  };
}

export interface SettleOptions {
  /** Receiver's answer window; silence then cancels ("Plazo vencido"). SAT: 72 h. */
  acceptanceWindowMs: number;
  /** Sandbox convenience: the receiver answers by itself after a delay. */
  autoAnswer?: { answer: 'accept' | 'reject'; afterMs: number };
}

/**
 * Applies the transitions that happen by the passage of time, evaluated lazily on read so tests
 * with an injected clock need no timers. A second request after a rejection never expires.
 */
export function settle(c: CancellationRecord, now: Date, options: SettleOptions): CancellationRecord {
  if (c.status !== 'en_proceso') return c;
  const elapsed = now.getTime() - c.requestedAt.getTime();
  const auto = options.autoAnswer;
  if (auto && elapsed >= auto.afterMs) {
    const status = auto.answer === 'accept' ? 'cancelado_con_aceptacion' : 'rechazada';
    return { ...c, status, resolvedAt: new Date(c.requestedAt.getTime() + auto.afterMs) };
  }
  if (c.requestCount === 1 && elapsed >= options.acceptanceWindowMs) {
    return {
      ...c,
      status: 'plazo_vencido',
      resolvedAt: new Date(c.requestedAt.getTime() + options.acceptanceWindowMs),
    };
  }
  return c;
}

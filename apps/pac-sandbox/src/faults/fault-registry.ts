import { randomUUID } from 'node:crypto';

export const FAULT_OPERATIONS = [
  'stamp',
  'stamped',
  'query_pending',
  'cancel_signature',
  'get_sat_status',
  'get_receipt',
  'add',
  'edit',
  'get',
  'retention_stamp',
  'retention_stamped',
  'retention_cancel_signature',
] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];

/**
 * - latency: answer normally after `params.ms`.
 * - hang: never answer; the client's timeout fires (ambiguous: the request was sent).
 * - reset: reset the connection before processing (client cannot know: ambiguous).
 * - process_then_reset: do the work (stamp is stored), then reset the connection (the ambiguous case).
 * - http_500: HTTP 500 before processing, marked with `x-pac-not-processed: true` (unavailable).
 * - http_500_after_processing: do the work, then HTTP 500 without the marker (ambiguous).
 * - sat_unavailable: the operation's 708 answer (unavailable).
 * - reject: the operation's rejection with `params.code` (rejected).
 * - queued: stamp: store, answer "Comprobante recibido satisfactoriamente" without the XML.
 * - duplicate_without_data: stamp: store, answer 307 without XML/UUID (Finkok's quirk).
 */
export const FAULT_KINDS = [
  'latency',
  'hang',
  'reset',
  'process_then_reset',
  'http_500',
  'http_500_after_processing',
  'sat_unavailable',
  'reject',
  'queued',
  'duplicate_without_data',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultParams {
  ms?: number;
  code?: string;
  message?: string;
}

export interface Fault {
  id: string;
  operation: FaultOperation;
  kind: FaultKind;
  /** How many more calls it applies to. */
  remaining: number;
  params: FaultParams;
}

/** In-memory, per sandbox process: faults are test scaffolding, not data worth persisting. */
export class FaultRegistry {
  private faults: Fault[] = [];

  add(input: { operation: FaultOperation; kind: FaultKind; count?: number; params?: FaultParams }): Fault {
    const fault: Fault = {
      id: randomUUID(),
      operation: input.operation,
      kind: input.kind,
      remaining: input.count ?? 1,
      params: input.params ?? {},
    };
    this.faults.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.faults;
  }

  clear(): void {
    this.faults = [];
  }

  /** Consumes one use of the oldest fault armed for this operation. */
  take(operation: FaultOperation): Fault | undefined {
    const fault = this.faults.find((f) => f.operation === operation);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return { ...fault };
  }
}

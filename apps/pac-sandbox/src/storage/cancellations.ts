import type pg from 'pg';

/** SAT cancellation state of one CFDI (cfdi40.md §8.4 state machine). */
export type CancellationStatus =
  'en_proceso' | 'rechazada' | 'cancelado_sin_aceptacion' | 'cancelado_con_aceptacion' | 'plazo_vencido';

export interface CancellationRecord {
  uuid: string;
  status: CancellationStatus;
  motivo: string;
  folioSustitucion: string | null;
  requiresAcceptance: boolean;
  /** After a rejection the issuer may ask again; the second request never expires into acceptance. */
  requestCount: number;
  requestedAt: Date;
  resolvedAt: Date | null;
  acuse: string;
  acuseFecha: string;
}

function toRecord(row: Record<string, unknown>): CancellationRecord {
  return {
    uuid: row.uuid as string,
    status: row.status as CancellationStatus,
    motivo: row.motivo as string,
    folioSustitucion: (row.folio_sustitucion as string | null) ?? null,
    requiresAcceptance: row.requires_acceptance as boolean,
    requestCount: row.request_count as number,
    requestedAt: row.requested_at as Date,
    resolvedAt: (row.resolved_at as Date | null) ?? null,
    acuse: row.acuse as string,
    acuseFecha: row.acuse_fecha as string,
  };
}

export class CancellationStore {
  constructor(private readonly pool: pg.Pool) {}

  async find(uuid: string): Promise<CancellationRecord | undefined> {
    const { rows } = await this.pool.query('SELECT * FROM cancellations WHERE uuid = $1', [
      uuid.toUpperCase(),
    ]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /**
   * Records a request that SAT accepted (201): a first request, or a new one after a rejection.
   * Conditional so that of two concurrent requests only one is the 201; the other sees 202.
   * Returns the request count when this request won, undefined otherwise.
   */
  async claim(
    r: Omit<CancellationRecord, 'requestCount' | 'acuse' | 'acuseFecha'>,
  ): Promise<number | undefined> {
    const { rows } = await this.pool.query(
      `INSERT INTO cancellations (uuid, status, motivo, folio_sustitucion, requires_acceptance, request_count, requested_at, resolved_at, acuse, acuse_fecha)
       VALUES ($1,$2,$3,$4,$5,1,$6,$7,'','')
       ON CONFLICT (uuid) DO UPDATE SET status = $2, motivo = $3, folio_sustitucion = $4, requires_acceptance = $5,
         request_count = cancellations.request_count + 1, requested_at = $6, resolved_at = $7
       WHERE cancellations.status = 'rechazada'
       RETURNING request_count`,
      [r.uuid, r.status, r.motivo, r.folioSustitucion, r.requiresAcceptance, r.requestedAt, r.resolvedAt],
    );
    return rows[0]?.request_count as number | undefined;
  }

  /** The acuse of the request that won `claim` (get_receipt returns the last one). */
  async setAcuse(uuid: string, acuse: string, acuseFecha: string): Promise<void> {
    await this.pool.query('UPDATE cancellations SET acuse = $2, acuse_fecha = $3 WHERE uuid = $1', [
      uuid,
      acuse,
      acuseFecha,
    ]);
  }

  /** Moves `uuid` from `from` to `to` only if it is still in `from`: concurrent answers cannot both win. */
  async transition(
    uuid: string,
    from: CancellationStatus,
    to: CancellationStatus,
    resolvedAt: Date,
  ): Promise<boolean> {
    const result = await this.pool.query(
      'UPDATE cancellations SET status = $3, resolved_at = $4 WHERE uuid = $1 AND status = $2',
      [uuid.toUpperCase(), from, to, resolvedAt],
    );
    return result.rowCount === 1;
  }
}

import type pg from 'pg';

export interface RegistrationRecord {
  rfc: string;
  typeUser: 'O' | 'P';
  /** `A` active, `S` suspended (Finkok registration `edit`). */
  status: 'A' | 'S';
  certificateDer: Buffer | null;
}

export class RegistrationStore {
  constructor(private readonly pool: pg.Pool) {}

  async find(rfc: string): Promise<RegistrationRecord | undefined> {
    const { rows } = await this.pool.query(
      'SELECT rfc, type_user, status, certificate_der FROM registrations WHERE rfc = $1',
      [rfc],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      rfc: row.rfc,
      typeUser: row.type_user,
      status: row.status,
      certificateDer: row.certificate_der ?? null,
    };
  }

  /** `add` of an existing RFC fails at Finkok; `inserted: false` lets the route say so. */
  async add(r: RegistrationRecord, now: Date): Promise<{ inserted: boolean }> {
    const result = await this.pool.query(
      `INSERT INTO registrations (rfc, type_user, status, certificate_der, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$5) ON CONFLICT (rfc) DO NOTHING`,
      [r.rfc, r.typeUser, r.status, r.certificateDer, now],
    );
    return { inserted: result.rowCount === 1 };
  }

  async edit(
    rfc: string,
    status: 'A' | 'S',
    certificateDer: Buffer | null,
    now: Date,
  ): Promise<{ updated: boolean }> {
    const result = await this.pool.query(
      `UPDATE registrations SET status = $2, certificate_der = COALESCE($3, certificate_der), updated_at = $4 WHERE rfc = $1`,
      [rfc, status, certificateDer, now],
    );
    return { updated: result.rowCount === 1 };
  }
}

import type pg from 'pg';

export interface StampRecord {
  xmlHash: string;
  uuid: string;
  emisorRfc: string;
  receptorRfc: string;
  total: string;
  tipoDeComprobante: string;
  /** Has InformacionGlobal: a global invoice to the general public. */
  global: boolean;
  fechaTimbrado: string;
  stampedAt: Date;
  xml: string;
  /**
   * Sandbox trigger: how the receiver answers a cancellation request (accept/reject at once, wait for the control
   * endpoint); any of them makes the cancellation need acceptance despite RMF 2.7.1.35-IX. null: no trigger.
   */
  receiverAnswer: 'accept' | 'reject' | 'wait' | null;
}

/** A stamped document's reference to another CFDI (CfdiRelacionado, or a payment's DoctoRelacionado). */
export interface Relation {
  relatedUuid: string;
  tipoRelacion: string;
}

const COLUMNS =
  'xml_hash, uuid, emisor_rfc, receptor_rfc, total, tipo_de_comprobante, global, fecha_timbrado, stamped_at, xml, receiver_answer';

function toRecord(row: Record<string, unknown>): StampRecord {
  return {
    xmlHash: row.xml_hash as string,
    uuid: row.uuid as string,
    emisorRfc: row.emisor_rfc as string,
    receptorRfc: row.receptor_rfc as string,
    total: row.total as string,
    tipoDeComprobante: row.tipo_de_comprobante as string,
    global: row.global as boolean,
    fechaTimbrado: row.fecha_timbrado as string,
    stampedAt: row.stamped_at as Date,
    xml: row.xml as string,
    receiverAnswer: (row.receiver_answer as StampRecord['receiverAnswer']) ?? null,
  };
}

export class StampStore {
  constructor(private readonly pool: pg.Pool) {}

  async findByHash(xmlHash: string): Promise<StampRecord | undefined> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM stamps WHERE xml_hash = $1`, [xmlHash]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async findByUuid(uuid: string): Promise<StampRecord | undefined> {
    const { rows } = await this.pool.query(`SELECT ${COLUMNS} FROM stamps WHERE uuid = $1`, [
      uuid.toUpperCase(),
    ]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  /**
   * What a `stamp` call needs before validating, in one round trip: the stamp of these exact bytes,
   * if any, and the issuer's registration status (null: not registered; rfc null: not asked).
   */
  async findForStamping(
    xmlHash: string,
    issuerRfc: string | null,
  ): Promise<{ existing: StampRecord | undefined; registrationStatus: string | null }> {
    const { rows } = await this.pool.query(
      `SELECT ${COLUMNS}, (SELECT status FROM registrations WHERE rfc = $2) AS registration_status
         FROM (SELECT 1) AS one LEFT JOIN stamps ON xml_hash = $1`,
      [xmlHash, issuerRfc],
    );
    const row = rows[0];
    return {
      existing: row.xml_hash ? toRecord(row) : undefined,
      registrationStatus: (row.registration_status as string | null) ?? null,
    };
  }

  /**
   * Stores a stamp and its relations in one statement (atomic, one round trip) unless the same
   * sealed XML was stamped concurrently; then returns the winner, so two racing `stamp` calls still
   * yield one UUID.
   */
  async insert(
    record: StampRecord,
    relations: readonly Relation[],
  ): Promise<{ inserted: boolean; record: StampRecord }> {
    const r = record;
    const result = await this.pool.query(
      `WITH stamp AS (
         INSERT INTO stamps (${COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)
         ON CONFLICT (xml_hash) DO NOTHING RETURNING uuid
       ), related AS (
         INSERT INTO relations (uuid, related_uuid, tipo_relacion)
         SELECT stamp.uuid, rel.related_uuid, rel.tipo_relacion
           FROM stamp, unnest($12::text[], $13::text[]) AS rel (related_uuid, tipo_relacion)
         ON CONFLICT DO NOTHING
       )
       SELECT uuid FROM stamp`,
      [
        r.xmlHash,
        r.uuid,
        r.emisorRfc,
        r.receptorRfc,
        r.total,
        r.tipoDeComprobante,
        r.global,
        r.fechaTimbrado,
        r.stampedAt,
        r.xml,
        r.receiverAnswer,
        relations.map((rel) => rel.relatedUuid.toUpperCase()),
        relations.map((rel) => rel.tipoRelacion),
      ],
    );
    if (result.rowCount === 1) return { inserted: true, record };
    const existing = await this.findByHash(record.xmlHash);
    if (!existing) throw new Error('stamp conflict without a stored stamp');
    return { inserted: false, record: existing };
  }

  /** Whether the stamped CFDI `uuid` relates `relatedUuid` with that TipoRelacion. */
  async relates(uuid: string, relatedUuid: string, tipoRelacion: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM relations WHERE uuid = $1 AND related_uuid = $2 AND tipo_relacion = $3',
      [uuid.toUpperCase(), relatedUuid.toUpperCase(), tipoRelacion],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Documents still in force that reference `uuid`: they make it "No cancelable". */
  async validReferrers(uuid: string): Promise<Array<{ uuid: string; tipoRelacion: string }>> {
    const { rows } = await this.pool.query(
      `SELECT r.uuid, r.tipo_relacion FROM relations r
         LEFT JOIN cancellations c ON c.uuid = r.uuid
        WHERE r.related_uuid = $1
          AND (c.status IS NULL OR c.status NOT IN ('cancelado_sin_aceptacion', 'cancelado_con_aceptacion', 'plazo_vencido'))`,
      [uuid.toUpperCase()],
    );
    return rows.map((row) => ({ uuid: row.uuid as string, tipoRelacion: row.tipo_relacion as string }));
  }
}

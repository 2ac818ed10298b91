import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@cfdi/db';
import {
  openSecret,
  readableKeys,
  sealedUnder,
  sealSecret,
  SecretBoxError,
  type MasterKeyring,
} from './secret-box';

/**
 * Every column that holds a secret-box envelope, with the row id its envelopes are authenticated with (the
 * `context` of sealSecret). A new sealed column is added here, or a rotation leaves it under the old key.
 */
const SEALED_TABLES = [
  { table: 'merchant_csds', id: 'merchant_id', columns: ['private_key_encrypted', 'password_encrypted'] },
  { table: 'webhook_endpoints', id: 'id', columns: ['secret', 'previous_secret'] },
] as const;

type SealedTable = (typeof SEALED_TABLES)[number];
export type SealedTableName = SealedTable['table'];

export interface MasterKeyRotationOptions {
  /** Rows read per query; each row is then re-encrypted in its own transaction. */
  batchSize?: number;
  /** A pause after each batch, to spread the load on a busy database. */
  pauseMs?: number;
  /** Called after each batch with the counts so far. */
  onBatch?: (progress: MasterKeyRotationReport) => void;
}

export interface MasterKeyRotationReport {
  /** The id every rotated envelope now names. */
  keyId: string;
  tables: Record<SealedTableName, { rotated: number; failed: number }>;
  /** Rows that could not be opened with any configured key (their id and why); they keep their old envelope. */
  failures: { table: SealedTableName; id: string; message: string }[];
}

/**
 * Re-encrypts every stored secret sealed under a key other than the ring's current one, so that the previous keys
 * can then be removed from the configuration. Idempotent and resumable: a row already under the current key is
 * skipped, so a rotation cut short (killed, crashed) is finished by running it again. Each row changes in its own
 * short transaction under a row lock, with all its envelopes at once, so a concurrent CSD or secret replacement is
 * never overwritten and a kill never leaves a row half-rotated; the API and the worker read both keys meanwhile.
 */
export async function rotateMasterKey(
  em: EntityManager,
  ring: MasterKeyring,
  options: MasterKeyRotationOptions = {},
): Promise<MasterKeyRotationReport> {
  const batchSize = options.batchSize ?? 100;
  const report: MasterKeyRotationReport = {
    keyId: ring.id,
    tables: { merchant_csds: { rotated: 0, failed: 0 }, webhook_endpoints: { rotated: 0, failed: 0 } },
    failures: [],
  };
  for (const sealed of SEALED_TABLES) {
    // Keyset pagination over the rows still under another key: a row that fails stays behind, never read twice.
    let after = '';
    for (;;) {
      const ids = await staleRowIds(em, sealed, ring.id, after, batchSize);
      if (!ids.length) break;
      for (const id of ids) {
        try {
          if (await rotateRow(em, sealed, ring, id)) report.tables[sealed.table].rotated++;
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
          report.tables[sealed.table].failed++;
          report.failures.push({ table: sealed.table, id, message: error.message });
        }
      }
      after = ids[ids.length - 1]!;
      options.onBatch?.(report);
      if (options.pauseMs) await sleep(options.pauseMs);
    }
  }
  return report;
}

async function staleRowIds(
  em: EntityManager,
  { table, id, columns }: SealedTable,
  keyId: string,
  after: string,
  limit: number,
): Promise<string[]> {
  // starts_with, not LIKE: a key id may contain "_", which LIKE reads as a wildcard.
  const stale = columns.map((c) => `(${c} is not null and not starts_with(${c}, ?))`).join(' or ');
  const prefix = `v1:${keyId}:`;
  const rows: { id: string }[] = await em.execute(
    `select ${id} as id from ${table} where ${id} > ? and (${stale}) order by ${id} limit ?`,
    [after, ...columns.map(() => prefix), limit],
  );
  return rows.map((row) => row.id);
}

/** Re-seals one row's envelopes under the current key; false when it needed nothing (rotated meanwhile). */
async function rotateRow(
  em: EntityManager,
  { table, id, columns }: SealedTable,
  ring: MasterKeyring,
  rowId: string,
): Promise<boolean> {
  return em.fork().transactional(async (tx) => {
    const rows: Record<string, string | null>[] = await tx.execute(
      `select ${columns.join(', ')} from ${table} where ${id} = ? for update`,
      [rowId],
    );
    const row = rows[0];
    if (!row) return false; // deleted meanwhile
    const keys = readableKeys(ring);
    const resealed = columns.map((column) => {
      const envelope = row[column];
      if (envelope === null || envelope === undefined || sealedUnder(envelope, ring)) return envelope ?? null;
      return sealSecret(ring, openSecret(keys, envelope, rowId), rowId);
    });
    if (resealed.every((envelope, i) => envelope === row[columns[i]!])) return false;
    await tx.execute(`update ${table} set ${columns.map((c) => `${c} = ?`).join(', ')} where ${id} = ?`, [
      ...resealed,
      rowId,
    ]);
    return true;
  });
}

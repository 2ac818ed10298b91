import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { SCHEMA_SQL } from './schema';

/**
 * The sandbox is a third-party-like service with its own database: it creates the database and
 * its tables itself at start (not part of the platform's migrations).
 */
export async function openDatabase(databaseUrl: string): Promise<pg.Pool> {
  await ensureDatabaseExists(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const client = await pool.connect();
  try {
    // Serialises concurrent first starts (parallel test workers) creating the same tables.
    await client.query("SELECT pg_advisory_lock(hashtext('pac_sandbox_schema'))");
    await client.query(SCHEMA_SQL);
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('pac_sandbox_schema'))").catch(() => undefined);
    client.release();
  }
  return pool;
}

async function ensureDatabaseExists(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unsupported sandbox database name "${name}"`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await createDatabase(admin, name);
  } finally {
    await admin.end();
  }
}

async function createDatabase(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // 42P04 duplicate_database / 23505: another process created it between the check and here.
      if (code === '42P04' || code === '23505') return;
      // 55006: template1 is busy because another CREATE DATABASE is copying it; it frees up shortly.
      if (code !== '55006' || attempt >= 20) throw err;
      await sleep(50 * attempt);
    }
  }
}

/** Drops a sandbox database (tests use one database per suite). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

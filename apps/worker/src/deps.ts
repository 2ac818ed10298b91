import type { Config } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import type { ActivityDeps } from '@cfdi/activities';
import {
  createPacClients, loadPrintableLogo, loadSigningCsd, merchantRefsOf, NotFoundError, UnsealableDocumentError, type CsdLoader, type DocumentRow,
} from '@cfdi/services';
import { createFileStorage } from '@cfdi/storage';

const systemScope = (row: DocumentRow) => ({ accountId: row.account_id, livemode: row.livemode, keyId: 'worker', merchantIds: null });

/** Everything activities use, built once per worker process. */
export async function createWorkerDeps(config: Readonly<Config>, now?: () => Date): Promise<ActivityDeps & { close(): Promise<void> }> {
  const orm = await createOrm(config.databaseUrl);
  const pac = createPacClients(config);
  const storage = createFileStorage(config);

  // Opening the encrypted PKCS#8 key (PBKDF2 + 3DES) costs more than sealing; keep opened keys briefly. A replaced
  // CSD has a new serial, so it is never served from the old entry.
  const csdCache = new Map<string, { csd: Awaited<ReturnType<typeof loadSigningCsd>>; until: number }>();
  const currentSerial = async (row: DocumentRow) => {
    const refs = merchantRefsOf(row);
    if (refs) return refs.csd_serial;
    const rows: { serial_number: string }[] = await orm.em.fork().execute('select serial_number from merchant_csds where merchant_id = ?', [row.merchant_id]);
    return rows[0]?.serial_number ?? null;
  };
  const cachedCsd = async (row: DocumentRow) => {
    const cacheKey = `${row.merchant_id}:${await currentSerial(row)}`;
    const hit = csdCache.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.csd;
    const csd = await loadSigningCsd(orm.em.fork(), config.masterKey, systemScope(row), row.merchant_id);
    csdCache.set(cacheKey, { csd, until: Date.now() + 10 * 60_000 });
    return csd;
  };

  // A CSD that vanished or expired after the document was accepted can never seal it: that is final, not retried.
  const loadCsd: CsdLoader = async (row) => {
    try {
      const csd = await cachedCsd(row);
      if (csd.validTo < (now?.() ?? new Date())) throw new UnsealableDocumentError('csd_expired', `The merchant's CSD expired on ${csd.validTo.toISOString()}.`);
      return csd;
    } catch (error) {
      if (error instanceof NotFoundError) throw new UnsealableDocumentError('csd_unavailable', `The merchant or its CSD no longer exists: ${error.message}`);
      throw error;
    }
  };

  return {
    config,
    orm,
    pac,
    loadCsd,
    files: {
      storage,
      loadLogo: (row) => loadPrintableLogo(orm.em.fork(), storage, systemScope(row), row.merchant_id, merchantRefsOf(row)?.logo_key),
    },
    ...(now ? { now } : {}),
    async close() {
      pac.close();
      await orm.close();
    },
  };
}

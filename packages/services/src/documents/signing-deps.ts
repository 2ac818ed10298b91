import type { Orm } from '@cfdi/db';
import type { MasterKeyring } from '../crypto/secret-box';
import type { FileStorage } from '@cfdi/storage';
import { NotFoundError } from '../errors';
import { loadSigningCsd } from '../merchants/csd';
import { loadPdfLook } from '../merchants/pdf-look';
import { selectCsdSerial } from '../merchants/merchant-repository';
import { merchantRefsOf, type DocumentRow } from './document-row';
import type { DocumentFilesDeps } from './files';
import { UnsealableDocumentError, type CsdLoader } from './sealing';

/** Opened keys are kept this long; a replaced CSD has a new serial, so it is never served from the old entry. */
const CSD_CACHE_MS = 10 * 60_000;

/** The stamp path acts for whoever created the document. */
const ownerScope = (row: DocumentRow) => ({
  accountId: row.account_id,
  livemode: row.livemode,
  keyId: 'worker',
  merchantIds: null,
});

/**
 * The CSD that seals a document. Opening the encrypted PKCS#8 key (PBKDF2 + 3DES) costs more than sealing, so opened
 * keys are cached per merchant and CSD serial. A CSD that vanished or expired after the document was accepted can
 * never seal it: that is final (UnsealableDocumentError), not retried.
 */
export function createCsdLoader(deps: {
  orm: Orm;
  masterKey: MasterKeyring | null;
  now: () => Date;
}): CsdLoader {
  const { orm, masterKey, now } = deps;
  const cache = new Map<string, { csd: Awaited<ReturnType<typeof loadSigningCsd>>; until: number }>();
  const currentSerial = async (row: DocumentRow) => {
    const refs = merchantRefsOf(row);
    if (refs) return refs.csd_serial;
    return selectCsdSerial(orm.em.fork(), row.merchant_id);
  };
  const cachedCsd = async (row: DocumentRow) => {
    const cacheKey = `${row.merchant_id}:${await currentSerial(row)}`;
    const hit = cache.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.csd;
    const csd = await loadSigningCsd(orm.em.fork(), masterKey, ownerScope(row), row.merchant_id);
    cache.set(cacheKey, { csd, until: Date.now() + CSD_CACHE_MS });
    return csd;
  };
  return async (row) => {
    try {
      const csd = await cachedCsd(row);
      if (csd.validTo < now())
        throw new UnsealableDocumentError(
          'csd_expired',
          `The merchant's CSD expired on ${csd.validTo.toISOString()}.`,
        );
      return csd;
    } catch (error) {
      if (error instanceof NotFoundError)
        throw new UnsealableDocumentError(
          'csd_unavailable',
          `The merchant or its CSD no longer exists: ${error.message}`,
        );
      throw error;
    }
  };
}

/** Storage and the merchant's PDF look (logo, colour, note), for rendering a document's files. */
export function documentFilesDeps(orm: Orm, storage: FileStorage): DocumentFilesDeps {
  return {
    storage,
    loadLook: (row) =>
      loadPdfLook(orm.em.fork(), storage, ownerScope(row), row.merchant_id, merchantRefsOf(row)),
  };
}

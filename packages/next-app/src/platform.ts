import { loadConfig } from '@cfdi/config';
import { createPlatform, type Platform as BasePlatform } from '@cfdi/platform';
import * as services from '@cfdi/services';
import type { DocumentFileProducer } from '@cfdi/services';

export interface Platform extends BasePlatform {
  /** A stamped document's PDF or ZIP not rendered yet is rendered on its first download, as the API's file URLs do. */
  files: DocumentFileProducer;
}

async function connect(): Promise<Platform> {
  // A Next app never encrypts or decrypts with MASTER_KEY (CSDs and webhook secrets are the API's and worker's).
  const config = loadConfig(process.env, { requireMasterKey: false });
  // The services passed in: in a Next.js build they are an async module, which the platform cannot require lazily.
  const platform = await createPlatform(config, { connect: ['redis'], services });
  const files = services.createDocumentFileProducer({
    storage: platform.storage,
    renderFiles: platform.renderFiles,
    onFailure: (documentId, error) =>
      console.error(`rendering the files of ${documentId} failed: ${error.message}`),
  });
  // Assigned, not spread: the platform's parts are opened on first use.
  return Object.assign(platform, { files });
}

/**
 * One set of connections per server process, under `key` on globalThis (Next may evaluate a module in several
 * bundles; globalThis is shared): `platform()`, and `em()` for a fresh EntityManager per request, as the API forks one.
 */
export function nextPlatform(key: string) {
  const holder = globalThis as unknown as Record<string, Promise<Platform> | undefined>;
  const platform = (): Promise<Platform> => (holder[key] ??= connect());
  const em = async () => (await platform()).orm.em.fork();
  return { platform, em };
}

import 'server-only';
import { loadConfig } from '@cfdi/config';
import { createPlatform, type Platform as BasePlatform } from '@cfdi/platform';
import * as services from '@cfdi/services';
import type { DocumentFileProducer } from '@cfdi/services';

export interface Platform extends BasePlatform {
  /** A stamped document's PDF or ZIP not rendered yet is rendered on its first download, as the API's file URLs do. */
  files: DocumentFileProducer;
}

// One set of connections per server process (Next may evaluate this module in several bundles; globalThis is shared).
const holder = globalThis as typeof globalThis & { cfdiPortalPlatform?: Promise<Platform> };

async function connect(): Promise<Platform> {
  // The portal never encrypts or decrypts with MASTER_KEY (CSDs and webhook secrets are the API's and worker's).
  const config = loadConfig(process.env, { requireMasterKey: false });
  // The services passed in: in this Next.js build they are an async module, which the platform cannot require lazily.
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

export function platform(): Promise<Platform> {
  holder.cfdiPortalPlatform ??= connect();
  return holder.cfdiPortalPlatform;
}

/** A fresh EntityManager per request, as the API forks one per request. */
export async function em() {
  return (await platform()).orm.em.fork();
}

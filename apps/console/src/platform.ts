import 'server-only';
import { loadConfig, type Config } from '@cfdi/config';
import { createOrm, type Orm } from '@cfdi/db';
import { connectRedis, createDocumentFileProducer, createPacClients, renderPdfAndZip, type DocumentFileProducer, type PacClients } from '@cfdi/services';
import { createFileStorage, type FileStorage } from '@cfdi/storage';
import { Client, Connection } from '@temporalio/client';
import type { Redis } from 'ioredis';

export interface Platform {
  config: Readonly<Config>;
  orm: Orm;
  redis: Redis;
  storage: FileStorage;
  temporal: Client;
  /** For the reconciliation queue's lookups and the check of an operator's "stamped" decision. */
  pac: PacClients;
  /** A stamped document's PDF or ZIP not rendered yet is rendered on its first download, as the API's file URLs do. */
  files: DocumentFileProducer;
}

// One set of connections per server process (Next may evaluate this module in several bundles; globalThis is shared).
const holder = globalThis as typeof globalThis & { cfdiConsolePlatform?: Promise<Platform> };

async function connect(): Promise<Platform> {
  const config = loadConfig(process.env);
  const orm = await createOrm(config.databaseUrl);
  const redis = await connectRedis(config.redisUrl, (error) => console.warn(`redis: ${error.message}`));
  const connection = Connection.lazy({ address: config.temporal.address });
  const storage = createFileStorage(config);
  const files = createDocumentFileProducer({
    storage, renderFiles: renderPdfAndZip, onFailure: (documentId, error) => console.error(`rendering the files of ${documentId} failed: ${error.message}`),
  });
  return { config, orm, redis, storage, temporal: new Client({ connection, namespace: config.temporal.namespace }), pac: createPacClients(config), files };
}

export function platform(): Promise<Platform> {
  holder.cfdiConsolePlatform ??= connect();
  return holder.cfdiConsolePlatform;
}

/** A fresh EntityManager per request, as the API forks one per request. */
export async function em() {
  return (await platform()).orm.em.fork();
}

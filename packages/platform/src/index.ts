import type { Redis } from 'ioredis';
import type { Client } from '@temporalio/client';
import type { Config } from '@cfdi/config';
import type { CatalogService } from '@cfdi/catalogs';
import { createOrm, type Orm } from '@cfdi/db';
import { temporalClientInterceptors } from '@cfdi/telemetry';
import type {
  CsdLoader,
  DocumentFilesDeps,
  FilesRenderer,
  Mailer,
  PacCallObserver,
  PacClients,
  StripeClients,
} from '@cfdi/services';
import type { FileStorage, FileUrlSigner } from '@cfdi/storage';
import { defineLazy } from './lazy';

/**
 * Every dependency a process of the platform uses, from one factory: the API, the worker, the console and the CLI
 * all call `createPlatform`, so each part is built one way everywhere. Nothing here needs a dependency to be up:
 * the database and Temporal connect on first use and Redis reconnects in the background.
 */
export interface Platform {
  config: Readonly<Config>;
  /** Injectable so tests pin dates (CSD validity, URL expiry) instead of depending on the calendar. */
  now: () => Date;
  orm: Orm;
  redis: Redis;
  temporal: Client;
  pac: PacClients;
  storage: FileStorage;
  fileUrls: FileUrlSigner;
  /** PDF and ZIP of a stamped document, rendered on its first download (replaceable so tests count or break renders). */
  renderFiles: FilesRenderer;
  catalogs: CatalogService;
  /** Stripe for balance top-ups, per mode (none configured: the billing endpoints answer 503). */
  stripe: StripeClients;
  /** The CSD that seals a document, opened keys cached (see `createCsdLoader`). */
  loadCsd: CsdLoader;
  /** Storage and the merchant's printable logo, for rendering a document's files. */
  documentFiles: DocumentFilesDeps;
  /** The SMTP sender of documents' e-mails (SMTP_URL), or null when e-mail is not configured. */
  mailer: Mailer | null;
  /** Closes every part that was opened. */
  close(): Promise<void>;
}

export interface PlatformOptions {
  now?: () => Date;
  /**
   * Parts connected before createPlatform returns rather than on first use: the API and the console take Redis up
   * front so their first request finds it connected.
   */
  connect?: Array<'redis'>;
  /** Told of every PAC call (the Prometheus latency histogram). */
  observePac?: PacCallObserver;
  /**
   * The services module, imported by the caller. For bundles that cannot require it on first use: in the console's
   * Next.js build it is an async module (its graph reaches ESM-only externals), which a plain require returns as a
   * promise.
   */
  services?: typeof import('@cfdi/services');
}

export async function createPlatform(
  config: Readonly<Config>,
  options: PlatformOptions = {},
): Promise<Platform> {
  // Parts are required when first built, so a process that never uses one (the CLI, mostly) never loads it.
  const services = () => options.services ?? (require('@cfdi/services') as typeof import('@cfdi/services'));
  const closers: Array<() => Promise<void> | void> = [];
  const orm = await createOrm(config.databaseUrl);
  const platform = {
    config,
    now: options.now ?? (() => new Date()),
    orm,
    async close() {
      for (const close of closers.reverse()) await close();
      await orm.close();
    },
  } as Platform;

  let redisConnected: Promise<void> = Promise.resolve();
  defineLazy(
    platform,
    'redis',
    () => {
      // Fails fast instead of queueing while Redis is down (rate limiting and /ready must answer at once).
      const { Redis } = require('ioredis') as typeof import('ioredis');
      const redis = new Redis(config.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        lazyConnect: true,
      });
      redis.on('error', (error: Error) => console.warn(`redis: ${error.message}`));
      redisConnected = redis.connect().catch(() => undefined);
      return redis;
    },
    (redis) => closers.push(() => services().closeRedis(redis)),
  );
  defineLazy(
    platform,
    'temporal',
    () => {
      const { Client, Connection } = require('@temporalio/client') as typeof import('@temporalio/client');
      const connection = Connection.lazy({ address: config.temporal.address, connectTimeout: 5_000 });
      // Traced: each workflow start or update carries the caller's trace context to the workflow.
      return new Client({
        connection,
        namespace: config.temporal.namespace,
        interceptors: temporalClientInterceptors(),
      });
    },
    (client) => closers.push(() => client.connection.close().catch(() => undefined)),
  );
  defineLazy(
    platform,
    'pac',
    () => services().createPacClients(config, options.observePac ? { observe: options.observePac } : {}),
    (pac) => closers.push(() => pac.close()),
  );
  defineLazy(platform, 'storage', () => require('@cfdi/storage').createFileStorage(config));
  defineLazy(platform, 'fileUrls', () => require('@cfdi/storage').createFileUrlSigner(config, platform.now));
  defineLazy(platform, 'renderFiles', () => services().renderPdfAndZip);
  defineLazy(platform, 'catalogs', () =>
    require('@cfdi/catalogs').createCatalogService({ em: () => orm.em.fork() }),
  );
  defineLazy(platform, 'stripe', () => services().createStripeClients(config.billing));
  defineLazy(platform, 'loadCsd', () =>
    services().createCsdLoader({ orm, masterKey: config.masterKey, now: platform.now }),
  );
  defineLazy(
    platform,
    'mailer',
    () => (config.mail.smtpUrl ? services().createMailer(config.mail.smtpUrl, config.mail.from) : null),
    (mailer) => closers.push(() => mailer?.close()),
  );
  defineLazy(platform, 'documentFiles', () => services().documentFilesDeps(orm, platform.storage));

  if (options.connect?.includes('redis')) {
    void platform.redis;
    await redisConnected;
  }
  return platform;
}

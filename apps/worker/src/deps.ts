import type { Config } from '@cfdi/config';
import type { ActivityDeps, ActivityObserver } from '@cfdi/activities';
import { createPlatform } from '@cfdi/platform';
import type { PacCallObserver } from '@cfdi/services';
import type { Client } from '@temporalio/client';

/** Everything activities use, from the platform (see @cfdi/platform), built once per worker process. */
export async function createWorkerDeps(
  config: Readonly<Config>,
  now?: () => Date,
  observe: { pac?: PacCallObserver; activities?: ActivityObserver } = {},
): Promise<ActivityDeps & { temporal: Client; close(): Promise<void> }> {
  const platform = await createPlatform(config, { ...(now ? { now } : {}), observePac: observe.pac });
  return {
    config,
    orm: platform.orm,
    pac: platform.pac,
    loadCsd: platform.loadCsd,
    catalogs: platform.catalogs,
    files: platform.documentFiles,
    emails: { storage: platform.storage, renderFiles: platform.renderFiles, mailer: platform.mailer },
    exports: {
      storage: platform.storage,
      partDocuments: config.exportPartDocuments,
      csvPartRows: config.exportCsvPartRows,
    },
    ...(now ? { now } : {}),
    ...(observe.activities ? { observer: observe.activities } : {}),
    /** A client of the platform's, for the worker's own Schedules. */
    temporal: platform.temporal,
    close: () => platform.close(),
  };
}

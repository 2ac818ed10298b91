import type { Config } from '@cfdi/config';
import type { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

/** The configured driver; only the local filesystem exists today (an S3 driver would plug in here). */
export function createFileStorage(config: Pick<Config, 'storage'>): FileStorage {
  switch (config.storage.driver) {
    case 'local':
      return new LocalFileStorage(config.storage.dir);
  }
}

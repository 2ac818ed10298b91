import type { Config } from '@cfdi/config';
import type { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

/** The driver `STORAGE_DRIVER` names: a local directory (default) or an S3 bucket. */
export function createFileStorage(config: Pick<Config, 'storage'>): FileStorage {
  const { storage } = config;
  switch (storage.driver) {
    case 'local':
      return new LocalFileStorage(storage.dir);
    case 's3': {
      // Loaded only when chosen: the AWS SDK adds ~120 ms to every process's start-up.
      const { S3FileStorage } = require('./s3-file-storage') as typeof import('./s3-file-storage');
      return new S3FileStorage(storage);
    }
  }
}

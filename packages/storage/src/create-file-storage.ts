import type { Config } from '@cfdi/config';
import type { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';
import { S3FileStorage } from './s3-file-storage';

/** The driver `STORAGE_DRIVER` names: a local directory (default) or an S3 bucket. */
export function createFileStorage(config: Pick<Config, 'storage'>): FileStorage {
  const { storage } = config;
  switch (storage.driver) {
    case 'local':
      return new LocalFileStorage(storage.dir);
    case 's3':
      return new S3FileStorage(storage);
  }
}

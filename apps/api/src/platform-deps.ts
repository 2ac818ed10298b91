import type { Config } from '@cfdi/config';
import { createPacClients, renderPdfAndZip, type FilesRenderer, type PacClients } from '@cfdi/services';
import { createFileStorage, createFileUrlSigner, type FileStorage, type FileUrlSigner } from '@cfdi/storage';

/** The PAC, file storage, signed URLs and the clock, shared by merchants, documents and the file route. */
export interface PlatformDeps {
  pac: PacClients;
  storage: FileStorage;
  fileUrls: FileUrlSigner;
  /** PDF and ZIP of a stamped document, rendered on its first download (replaceable so tests count or break renders). */
  renderFiles: FilesRenderer;
  /** Injectable so tests pin dates (CSD validity, URL expiry) instead of depending on the calendar. */
  now: () => Date;
}

export function createPlatformDeps(config: Readonly<Config>, options: { now?: () => Date } = {}): PlatformDeps {
  const now = options.now ?? (() => new Date());
  return { pac: createPacClients(config), storage: createFileStorage(config), fileUrls: createFileUrlSigner(config, now), renderFiles: renderPdfAndZip, now };
}

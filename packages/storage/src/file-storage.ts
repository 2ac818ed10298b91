/** Bytes plus the media type they were stored with (served back as Content-Type). */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where generated and uploaded files live (invoice XML/PDF/ZIP, acuses, logos). Keys are slash-separated
 * paths such as `acct_x/test/merchants/mch_y/logo`; drivers validate them with `assertStorageKey`.
 */
export interface FileStorage {
  /** Stores or replaces the file atomically: readers see the old bytes or the new ones, never a mix. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** null when nothing is stored under the key. */
  get(key: string): Promise<StoredFile | null>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Bytes plus the media type they were stored with (served back as Content-Type). */
export interface StoredFile {
  bytes: Buffer;
  contentType: string;
}

/** A stored file read as a stream: large files (exports) are served without sitting whole in memory. */
export interface StoredFileStream {
  stream: NodeJS.ReadableStream;
  contentType: string;
  /** Bytes, as stored. */
  size: number;
}

/**
 * Where generated and uploaded files live (invoice XML/PDF/ZIP, acuses, logos). Keys are slash-separated
 * paths such as `acct_x/test/merchants/mch_y/logo`; drivers validate them with `assertStorageKey`.
 */
export interface FileStorage {
  /** Stores or replaces the file atomically: readers see the old bytes or the new ones, never a mix. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /**
   * Stores the chunks as one file, written as they come (never all in memory), as atomically as `put`: the file
   * appears whole once the last chunk is stored, or not at all. Answers the bytes stored.
   */
  putStream(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<number>;
  /** null when nothing is stored under the key. */
  get(key: string): Promise<StoredFile | null>;
  /** The file as a stream; null when nothing is stored under the key. */
  getStream(key: string): Promise<StoredFileStream | null>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
}

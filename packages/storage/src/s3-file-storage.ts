import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '@cfdi/config';
import type { FileStorage, StoredFile } from './file-storage';
import { assertStorageKey } from './storage-key';

export type S3StorageOptions = Omit<Extract<StorageConfig, { driver: 's3' }>, 'driver'>;

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * Objects in one bucket, optionally under a prefix. S3 (and the compatible servers) replace an object whole on
 * PUT and answer only once it is stored, so put is atomic and durable without temp files; deleting a missing
 * object succeeds, so delete is idempotent as it is.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly options: S3StorageOptions) {
    this.client = new S3Client({
      endpoint: options.endpoint ?? undefined,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // The SDK waits forever by default: a stalled server would hang a stamp's files instead of failing them.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
    });
  }

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    const Key = this.objectKey(key);
    await this.send('PutObject', Key, () =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.options.bucket, Key, Body: bytes, ContentType: contentType }),
      ),
    );
  }

  async get(key: string): Promise<StoredFile | null> {
    const Key = this.objectKey(key);
    return this.send('GetObject', Key, async () => {
      try {
        const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key }));
        const bytes = Buffer.from(await object.Body!.transformToByteArray());
        return { bytes, contentType: object.ContentType ?? DEFAULT_CONTENT_TYPE };
      } catch (error) {
        // Only a missing object is "nothing stored"; a missing bucket or a refused credential must surface.
        if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return null;
        throw error;
      }
    });
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    await this.send('DeleteObject', Key, () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key })),
    );
  }

  private objectKey(key: string): string {
    assertStorageKey(key);
    return this.options.prefix ? `${this.options.prefix}/${key}` : key;
  }

  /** Names the operation, bucket and endpoint in the error (the SDK's own message says none of them), keeping the cause. */
  private async send<T>(operation: string, objectKey: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      const where = `s3://${this.options.bucket}/${objectKey}${this.options.endpoint ? ` at ${this.options.endpoint}` : ''}`;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new Error(`${operation} ${where} failed: ${reason}`, { cause: error });
    }
  }
}

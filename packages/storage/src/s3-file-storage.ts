import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '@cfdi/config';
import type { FileStorage, StoredFile, StoredFileStream } from './file-storage';
import { assertStorageKey } from './storage-key';

export type S3StorageOptions = Omit<Extract<StorageConfig, { driver: 's3' }>, 'driver'>;

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** Bytes per part of a streamed upload: S3 takes parts of 5 MiB and more (but the last), up to 10,000 of them. */
const PART_SIZE = 8 * 1024 * 1024;

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

  /**
   * A multipart upload of 8 MiB parts, one buffered at a time; the object appears only when the upload completes,
   * and a failed one is aborted (its parts deleted). Under one part, a plain PUT.
   */
  async putStream(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<number> {
    const Key = this.objectKey(key);
    const Bucket = this.options.bucket;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let size = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number }[] = [];
    const uploadPart = async () => {
      uploadId ??= (
        await this.send('CreateMultipartUpload', Key, () =>
          this.client.send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType: contentType })),
        )
      ).UploadId!;
      const PartNumber = parts.length + 1;
      const Body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      const { ETag } = await this.send('UploadPart', Key, () =>
        this.client.send(new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body })),
      );
      parts.push({ ETag: ETag!, PartNumber });
    };
    try {
      for await (const chunk of chunks) {
        pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        pendingBytes += chunk.byteLength;
        size += chunk.byteLength;
        if (pendingBytes >= PART_SIZE) await uploadPart();
      }
      if (!uploadId) {
        await this.put(key, Buffer.concat(pending), contentType);
        return size;
      }
      if (pendingBytes > 0) await uploadPart();
      await this.send('CompleteMultipartUpload', Key, () =>
        this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        ),
      );
      return size;
    } catch (error) {
      if (uploadId)
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      throw error;
    }
  }

  async getStream(key: string): Promise<StoredFileStream | null> {
    const Key = this.objectKey(key);
    return this.send('GetObject', Key, async () => {
      try {
        const object = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key }));
        return {
          stream: object.Body as Readable,
          contentType: object.ContentType ?? DEFAULT_CONTENT_TYPE,
          size: object.ContentLength ?? 0,
        };
      } catch (error) {
        if (error instanceof S3ServiceException && error.name === 'NoSuchKey') return null;
        throw error;
      }
    });
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

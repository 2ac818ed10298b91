import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { loadConfig } from '@cfdi/config';
// Imported by path, not declared in package.json: @cfdi/devstack depends (through @cfdi/services) on this
// package, and turbo refuses dependency cycles.
import { startMinio } from '@cfdi/devstack/src/minio-server';
import { freePort, Supervisor } from '@cfdi/devstack/src/supervisor';
import { createFileStorage } from './create-file-storage';
import { S3FileStorage, type S3StorageOptions } from './s3-file-storage';

// The first run on a machine builds MinIO with Go (several minutes); later runs start it in about a second.
const FIRST_BUILD_TIMEOUT_MS = 30 * 60_000;
const credentials = { accessKeyId: 'cfdi-test', secretAccessKey: 'cfdi-test-secret' };

let supervisor: Supervisor;
let dataDir: string;
let options: S3StorageOptions;
let storage: S3FileStorage;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfdi-minio-'));
  supervisor = new Supervisor((name, code) => process.stderr.write(`${name} exited unexpectedly (${code})\n`));
  const log = (line: string) => process.stdout.write(`[minio] ${line}\n`);
  const endpoint = await startMinio(supervisor, { port: await freePort(), dataDir, ...credentials, log });
  options = { endpoint, region: 'us-east-1', bucket: 'cfdi-files', forcePathStyle: true, prefix: null, ...credentials };
  await rawClient().send(new CreateBucketCommand({ Bucket: options.bucket }));
  storage = new S3FileStorage(options);
}, FIRST_BUILD_TIMEOUT_MS);

afterAll(async () => {
  await supervisor?.stopAll();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

/** The bucket seen directly, to check what the driver really stored. */
function rawClient(): S3Client {
  const { endpoint, region, forcePathStyle, accessKeyId, secretAccessKey } = options;
  return new S3Client({ endpoint: endpoint!, region, forcePathStyle, credentials: { accessKeyId, secretAccessKey } });
}

/** A fresh account folder per test: tests isolate by ids, not by cleaning up. */
const freshKey = (rest: string) => `acct_${randomUUID().slice(0, 8)}/test/${rest}`;

it('stores, replaces, reads back with the content type and deletes idempotently', async () => {
  const key = freshKey('merchants/mch_1/logo');
  const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  expect(await storage.get(key)).toBeNull();
  await storage.put(key, everyByte, 'image/png');
  expect(await storage.get(key)).toEqual({ bytes: everyByte, contentType: 'image/png' });
  await storage.put(key, Buffer.from('two'), 'image/jpeg');
  expect(await storage.get(key)).toEqual({ bytes: Buffer.from('two'), contentType: 'image/jpeg' });
  const head = await rawClient().send(new HeadObjectCommand({ Bucket: options.bucket, Key: key }));
  expect(head).toMatchObject({ ContentType: 'image/jpeg', ContentLength: 3 });
  await storage.delete(key);
  await storage.delete(key);
  expect(await storage.get(key)).toBeNull();
});

it('rejects keys that could escape the bucket folder, before any request', async () => {
  for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '', 'a/.meta', 'a\\b', 'a/%2e%2e/b', 'a/b/', 'a/..']) {
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid storage key');
    await expect(storage.get(key)).rejects.toThrow('invalid storage key');
    await expect(storage.delete(key)).rejects.toThrow('invalid storage key');
  }
});

it('keeps readers on whole objects while many writers replace the same key', async () => {
  const key = freshKey('big');
  const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(256 * 1024, i));
  const reads: Promise<unknown>[] = [];
  await Promise.all(versions.map(async (bytes) => {
    await storage.put(key, bytes, 'application/octet-stream');
    reads.push(storage.get(key));
  }));
  for (const read of await Promise.all(reads)) {
    const bytes = (read as { bytes: Buffer }).bytes;
    expect(bytes.length).toBe(256 * 1024);
    expect(bytes.every((b) => b === bytes[0])).toBe(true);
  }
});

it('keeps every object under the prefix, invisible to a driver without it', async () => {
  const key = freshKey('documents/doc_1/a.xml');
  const prefixed = new S3FileStorage({ ...options, prefix: 'cfdi/prod' });
  await prefixed.put(key, Buffer.from('<cfdi/>'), 'application/xml');
  const head = await rawClient().send(new HeadObjectCommand({ Bucket: options.bucket, Key: `cfdi/prod/${key}` }));
  expect(head.ContentType).toBe('application/xml');
  expect(await storage.get(key)).toBeNull();
  expect(await prefixed.get(key)).toEqual({ bytes: Buffer.from('<cfdi/>'), contentType: 'application/xml' });
  await prefixed.delete(key);
  expect(await prefixed.get(key)).toBeNull();
});

it('is what createFileStorage builds for STORAGE_DRIVER=s3', async () => {
  const config = loadConfig({
    STORAGE_DRIVER: 's3', S3_ENDPOINT: options.endpoint!, S3_BUCKET: options.bucket,
    S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey, S3_PREFIX: 'from-config',
  });
  const key = freshKey('acuses/can_1.xml');
  await createFileStorage(config).put(key, Buffer.from('acuse'), 'application/xml');
  expect(await storage.get(`from-config/${key}`)).toEqual({ bytes: Buffer.from('acuse'), contentType: 'application/xml' });
});

it('fails with the reason, not null, when the credentials are wrong or the bucket is missing', async () => {
  const key = freshKey('logo');
  const wrongSecret = new S3FileStorage({ ...options, secretAccessKey: 'not-the-secret' });
  await expect(wrongSecret.get(key)).rejects.toThrow(`GetObject s3://cfdi-files/${key} at ${options.endpoint} failed: SignatureDoesNotMatch`);
  await expect(wrongSecret.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow('PutObject s3://cfdi-files');
  const unknownKey = new S3FileStorage({ ...options, accessKeyId: 'nobody' });
  await expect(unknownKey.delete(key)).rejects.toThrow('failed: InvalidAccessKeyId');
  const noBucket = new S3FileStorage({ ...options, bucket: 'no-such-bucket' });
  await expect(noBucket.get(key)).rejects.toThrow('failed: NoSuchBucket');
});

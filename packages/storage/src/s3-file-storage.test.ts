import { randomUUID } from 'node:crypto';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { loadConfig } from '@cfdi/config';
// Imported by path, not declared in package.json: @cfdi/devstack depends (through @cfdi/services) on this
// package, and turbo refuses dependency cycles.
import { startThrowawayBucket, type ThrowawayBucket } from '@cfdi/devstack/src/minio-server';
import { createFileStorage } from './create-file-storage';
import { S3FileStorage, type S3StorageOptions } from './s3-file-storage';
import {
  expectStreamedPutsWhole,
  expectWholeReadsUnderConcurrentWrites,
} from './testing/file-storage-contract';

// The first run on a machine builds MinIO with Go (several minutes); later runs start it in about a second.
const FIRST_BUILD_TIMEOUT_MS = 30 * 60_000;

let minio: ThrowawayBucket;
let options: S3StorageOptions;
let storage: S3FileStorage;

beforeAll(async () => {
  minio = await startThrowawayBucket('cfdi-files', (line) => process.stdout.write(`[minio] ${line}\n`));
  const { endpoint, bucket, accessKeyId, secretAccessKey } = minio;
  options = {
    endpoint,
    region: 'us-east-1',
    bucket,
    forcePathStyle: true,
    prefix: null,
    accessKeyId,
    secretAccessKey,
  };
  storage = new S3FileStorage(options);
}, FIRST_BUILD_TIMEOUT_MS);

afterAll(async () => minio?.stop());

/** The bucket seen directly, to check what the driver really stored. */
const rawClient = () => minio.client;

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
  for (const key of [
    '../x',
    'a/../../x',
    '/etc/passwd',
    'a//b',
    '',
    'a/.meta',
    'a\\b',
    'a/%2e%2e/b',
    'a/b/',
    'a/..',
  ]) {
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid storage key');
    await expect(storage.get(key)).rejects.toThrow('invalid storage key');
    await expect(storage.delete(key)).rejects.toThrow('invalid storage key');
  }
});

it('keeps readers on whole objects while many writers replace the same key', async () => {
  await expectWholeReadsUnderConcurrentWrites(storage, freshKey('big'));
});

it('streams a file of several multipart parts, and leaves no object when the source fails', async () => {
  // 8 MiB parts: two whole ones and a short last one.
  await expectStreamedPutsWhole(storage, freshKey('exports/exp_1/documents.zip'), 19 * 1024 * 1024 + 5);
  const small = freshKey('exports/exp_2/documents.csv');
  await expectStreamedPutsWhole(storage, small, 1000);
});

it('keeps every object under the prefix, invisible to a driver without it', async () => {
  const key = freshKey('documents/doc_1/a.xml');
  const prefixed = new S3FileStorage({ ...options, prefix: 'cfdi/prod' });
  await prefixed.put(key, Buffer.from('<cfdi/>'), 'application/xml');
  const head = await rawClient().send(
    new HeadObjectCommand({ Bucket: options.bucket, Key: `cfdi/prod/${key}` }),
  );
  expect(head.ContentType).toBe('application/xml');
  expect(await storage.get(key)).toBeNull();
  expect(await prefixed.get(key)).toEqual({ bytes: Buffer.from('<cfdi/>'), contentType: 'application/xml' });
  await prefixed.delete(key);
  expect(await prefixed.get(key)).toBeNull();
});

it('is what createFileStorage builds for STORAGE_DRIVER=s3', async () => {
  const config = loadConfig({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: options.endpoint!,
    S3_BUCKET: options.bucket,
    S3_ACCESS_KEY_ID: minio.accessKeyId,
    S3_SECRET_ACCESS_KEY: minio.secretAccessKey,
    S3_PREFIX: 'from-config',
  });
  const key = freshKey('acuses/can_1.xml');
  await createFileStorage(config).put(key, Buffer.from('acuse'), 'application/xml');
  expect(await storage.get(`from-config/${key}`)).toEqual({
    bytes: Buffer.from('acuse'),
    contentType: 'application/xml',
  });
});

it('fails with the reason, not null, when the credentials are wrong or the bucket is missing', async () => {
  const key = freshKey('logo');
  const wrongSecret = new S3FileStorage({ ...options, secretAccessKey: 'not-the-secret' });
  await expect(wrongSecret.get(key)).rejects.toThrow(
    `GetObject s3://cfdi-files/${key} at ${options.endpoint} failed: SignatureDoesNotMatch`,
  );
  await expect(wrongSecret.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(
    'PutObject s3://cfdi-files',
  );
  const unknownKey = new S3FileStorage({ ...options, accessKeyId: 'nobody' });
  await expect(unknownKey.delete(key)).rejects.toThrow('failed: InvalidAccessKeyId');
  const noBucket = new S3FileStorage({ ...options, bucket: 'no-such-bucket' });
  await expect(noBucket.get(key)).rejects.toThrow('failed: NoSuchBucket');
});

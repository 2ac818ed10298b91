import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { startThrowawayBucket, type ThrowawayBucket } from '@cfdi/devstack';
import { logoFixture } from './merchant-fixtures';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

// The first run on a machine builds MinIO with Go (minutes); later runs start it in about a second.
const MINIO_START_TIMEOUT_MS = 30 * 60_000;
const BUCKET = 'cfdi-e2e';
const PREFIX = 'tenant-files';

let minio: ThrowawayBucket;
let stack: StackHarness;

beforeAll(async () => {
  minio = await startThrowawayBucket(BUCKET, (line) => process.stdout.write(`[minio] ${line}\n`));
  stack = await startStack({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: minio.endpoint,
    S3_BUCKET: BUCKET,
    S3_PREFIX: PREFIX,
    S3_ACCESS_KEY_ID: minio.accessKeyId,
    S3_SECRET_ACCESS_KEY: minio.secretAccessKey,
  });
}, MINIO_START_TIMEOUT_MS);

// Two hooks: MinIO is stopped even when closing the stack fails or times out (a MinIO left running keeps jest alive).
afterAll(async () => stack?.close(), 120_000);
afterAll(async () => minio?.stop(), 60_000);

/** Signed URLs carry PUBLIC_BASE_URL; the test API listens on an ephemeral port. */
const local = (url: string) => stack.api.url + new URL(url).pathname + new URL(url).search;
const storageKey = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\/files\//, ''));

async function objectIn(key: string) {
  return minio.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${key}` }));
}

it('stamps with STORAGE_DRIVER=s3: the logo, XML, PDF and ZIP live in the bucket and are served by signed URLs', async () => {
  const account = await stampingAccount(stack);
  const logo = logoFixture('logo.png');
  const uploaded = await stack.api.request('PUT', `/v1/merchants/${account.merchantId}/logo`, {
    key: account.testKey,
    body: { logo: logo.toString('base64') },
  });
  expect(uploaded.status).toBe(200);
  expect(await objectIn(storageKey(uploaded.body.logoUrl))).toMatchObject({
    ContentType: 'image/png',
    ContentLength: logo.length,
  });

  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect(res.status).toBe(201);
  expect(res.body.files.status).toBe('ready');

  // The first download renders the files and stores the three (the ZIP's request waits for those writes).
  const expected = {
    pdfUrl: 'application/pdf',
    zipUrl: 'application/zip',
    xmlUrl: 'application/xml',
  } as const;
  const served: { url: string; contentType: string; bytes: Buffer }[] = [];
  for (const [field, contentType] of Object.entries(expected)) {
    const url: string = res.body.files[field];
    const answer = await fetch(local(url));
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect({ field, status: answer.status, type: answer.headers.get('content-type') }).toEqual({
      field,
      status: 200,
      type: contentType,
    });
    if (field === 'xmlUrl') expect(bytes.toString('utf8')).toContain(`UUID="${res.body.uuid}"`);
    if (field === 'pdfUrl') expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    if (field === 'zipUrl') expect(bytes.readUInt32LE(0)).toBe(0x04034b50);
    served.push({ url, contentType, bytes });
  }
  // What the API served is exactly what the bucket holds under the configured prefix.
  for (const { url, contentType, bytes } of served) {
    expect(await objectIn(storageKey(url))).toMatchObject({
      ContentType: contentType,
      ContentLength: bytes.length,
    });
  }
}, 120_000);

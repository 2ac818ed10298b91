import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureGoTool, goToolPath, type GoTool } from './go-install';
import { freePort, Supervisor, waitForHttp } from './supervisor';

/**
 * Pinned to the last commit of github.com/minio/minio (the repository is archived). Its RELEASE.* tags are not
 * semantic versions, so the module proxy serves the code only under pseudo-versions like this one.
 */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';

const MINIO: GoTool = {
  title: 'MinIO',
  name: 'minio',
  binary: 'minio',
  pkg: 'github.com/minio/minio',
  version: MINIO_VERSION,
};

export function minioPath(): string {
  return goToolPath(MINIO);
}

/** Builds the MinIO server into a cache outside the repository when it is missing (several minutes the first time). */
export function ensureMinio(log: (line: string) => void): string {
  return ensureGoTool(MINIO, log, ', or point S3_ENDPOINT at a running S3-compatible server');
}

export interface MinioOptions {
  port: number;
  /** Where objects are kept: one plain folder (a single-drive server). */
  dataDir: string;
  /** The root user's credentials: at least 3 and 8 characters. */
  accessKeyId: string;
  secretAccessKey: string;
  log: (line: string) => void;
}

/** Starts a single-drive MinIO on loopback under the supervisor and answers its endpoint once it is ready. */
export async function startMinio(supervisor: Supervisor, options: MinioOptions): Promise<string> {
  const binary = ensureMinio(options.log);
  const endpoint = `http://127.0.0.1:${options.port}`;
  supervisor.start(
    'minio',
    binary,
    ['server', '--quiet', '--address', `127.0.0.1:${options.port}`, options.dataDir],
    {
      env: {
        MINIO_ROOT_USER: options.accessKeyId,
        MINIO_ROOT_PASSWORD: options.secretAccessKey,
        // No web console and no update check: nothing listens beyond the S3 port and nothing calls out.
        MINIO_BROWSER: 'off',
        MINIO_UPDATE: 'off',
      },
    },
  );
  await waitForHttp(`${endpoint}/minio/health/ready`, 60_000);
  return endpoint;
}

export interface ThrowawayBucket {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bucket seen directly, to check what a driver really stored. */
  client: S3Client;
  /** Stops MinIO and deletes its data. */
  stop(): Promise<void>;
}

/** A throwaway MinIO (free port, temporary data folder) holding one empty bucket: tests against a real S3 server. */
export async function startThrowawayBucket(
  bucket: string,
  log: (line: string) => void,
): Promise<ThrowawayBucket> {
  const credentials = { accessKeyId: 'cfdi-test', secretAccessKey: 'cfdi-test-secret' };
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfdi-minio-'));
  const supervisor = new Supervisor((name, code) => log(`${name} exited unexpectedly (${code})`));
  let endpoint: string;
  let client: S3Client;
  try {
    endpoint = await startMinio(supervisor, { port: await freePort(), dataDir, ...credentials, log });
    client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    // A server left running would keep the caller's process (a test runner) alive for ever.
    await supervisor.stopAll();
    throw error;
  }
  return {
    endpoint,
    bucket,
    ...credentials,
    client,
    async stop() {
      client.destroy();
      await supervisor.stopAll();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

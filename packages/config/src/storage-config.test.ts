import { ConfigError, loadConfig } from './config';

const s3 = {
  STORAGE_DRIVER: 's3',
  S3_BUCKET: 'cfdi-files',
  S3_ACCESS_KEY_ID: 'AKIA1',
  S3_SECRET_ACCESS_KEY: 'secret',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

it('keeps the local driver by default', () => {
  expect(loadConfig({ STORAGE_DIR: '/srv/files' }).storage).toEqual({ driver: 'local', dir: '/srv/files' });
});

it('reads AWS S3 with its defaults: us-east-1, virtual-hosted URLs, no prefix', () => {
  expect(loadConfig(s3).storage).toEqual({
    driver: 's3',
    endpoint: null,
    region: 'us-east-1',
    bucket: 'cfdi-files',
    accessKeyId: 'AKIA1',
    secretAccessKey: 'secret',
    forcePathStyle: false,
    prefix: null,
  });
});

it('uses path-style URLs with an endpoint unless told otherwise, and trims the prefix', () => {
  const env = {
    ...s3,
    S3_ENDPOINT: 'http://127.0.0.1:9000/',
    S3_REGION: 'mx-central-1',
    S3_PREFIX: '/cfdi/prod/',
  };
  expect(loadConfig(env).storage).toMatchObject({
    endpoint: 'http://127.0.0.1:9000',
    region: 'mx-central-1',
    forcePathStyle: true,
    prefix: 'cfdi/prod',
  });
  expect(loadConfig({ ...env, S3_FORCE_PATH_STYLE: 'false' }).storage).toMatchObject({
    forcePathStyle: false,
  });
});

it('reports every missing or malformed S3 variable, and only for the s3 driver', () => {
  expect(problems({ STORAGE_DRIVER: 's3' })).toEqual([
    'S3_BUCKET is required when STORAGE_DRIVER=s3: the bucket that holds the files',
    'S3_ACCESS_KEY_ID is required when STORAGE_DRIVER=s3: the access key of a user allowed to read and write the bucket',
    "S3_SECRET_ACCESS_KEY is required when STORAGE_DRIVER=s3: that access key's secret",
  ]);
  expect(
    problems({
      ...s3,
      S3_ENDPOINT: 'minio:9000',
      S3_BUCKET: 'My_Bucket',
      S3_PREFIX: 'a/../b',
      S3_FORCE_PATH_STYLE: 'yes',
    }),
  ).toEqual([
    'S3_ENDPOINT="minio:9000" must be a http: or https: URL',
    'S3_BUCKET="My_Bucket" must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    'S3_PREFIX="a/../b" must be slash-separated segments of letters, digits, dots, underscores and hyphens',
    'S3_FORCE_PATH_STYLE="yes" must be true or false',
  ]);
  expect(problems({ STORAGE_DRIVER: 'gcs' })).toEqual(['STORAGE_DRIVER="gcs" must be one of local, s3']);
  expect(problems({ S3_BUCKET: 'My_Bucket' })).toEqual([]);
});

export * from './checks';
export * from './supervisor';
export { ensureTemporalCli, temporalCliPath, TEMPORAL_CLI_VERSION } from './temporal-cli';
export { startTemporalDevServer } from './temporal-server';
export { ensureMinio, minioPath, startMinio, MINIO_VERSION, type MinioOptions } from './minio-server';
export { importCatalogsIfNeeded } from './catalogs';

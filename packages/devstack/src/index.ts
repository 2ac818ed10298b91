export * from './checks';
export * from './supervisor';
export { ensureTemporalCli, temporalCliPath, TEMPORAL_CLI_VERSION } from './temporal-cli';
export { startTemporalDevServer } from './temporal-server';
export {
  ensureMinio,
  minioPath,
  startMinio,
  startThrowawayBucket,
  MINIO_VERSION,
  type MinioOptions,
  type ThrowawayBucket,
} from './minio-server';
export { importCatalogsIfNeeded } from './catalogs';
export {
  ensureStripeMock,
  startStripeMock,
  stripeMockPath,
  STRIPE_MOCK_VERSION,
  type RunningStripeMock,
} from './stripe-mock';
export {
  ensureMailpit,
  mailpitArgs,
  mailpitPath,
  startMailpit,
  MAILPIT_VERSION,
  type RunningMailpit,
} from './mailpit';
export { ensureNode24, node24Path, NODE_24_VERSION, PRODUCTION_ENV } from './node-runtime';
export {
  freeTemporalPorts,
  temporalPorts,
  ensureTemporalServer,
  migrateTemporalDatabases,
  startTemporalPostgresServer,
  temporalSchemaDir,
  temporalServerEnv,
  temporalServerPath,
  temporalSqlToolPath,
  TEMPORAL_CONFIG_DIR,
  TEMPORAL_SERVER_VERSION,
  type TemporalPorts,
  type TemporalPostgresOptions,
} from './temporal-postgres';
export { DEFAULT_RETENTION_DAYS, ensureNamespace } from './temporal-namespace';
export {
  ensureJaeger,
  jaegerPath,
  startJaeger,
  JAEGER_CONFIG,
  JAEGER_VERSION,
  type RunningJaeger,
} from './jaeger';
export { devMasterKeyPath, ensureDevMasterKey, readDevMasterKey } from './dev-master-key';
export { busyPorts, portHolders, type PlannedPort, type PortHolder } from './ports';
export {
  ensureHelm,
  ensurePromtool,
  helmPath,
  promtoolPath,
  HELM_VERSION,
  PROMTOOL_VERSION,
} from './deploy-tools';

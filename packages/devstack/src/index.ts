export * from './checks';
export * from './supervisor';
export { ensureTemporalCli, temporalCliPath, TEMPORAL_CLI_VERSION } from './temporal-cli';
export { startTemporalDevServer } from './temporal-server';
export { importCatalogsIfNeeded } from './catalogs';

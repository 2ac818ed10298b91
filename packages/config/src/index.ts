export { loadConfig, ConfigError, type Config, type StorageConfig } from './config';
export { repoRoot, defaultSatDir } from './paths';

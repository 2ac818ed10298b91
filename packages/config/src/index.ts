export { loadConfig, ConfigError, type Config } from './config';
export { repoRoot, defaultSatDir } from './paths';

export { loadConfig, ConfigError, type Config, type StorageConfig, type BillingConfig, type StripeAccountConfig } from './config';
export { repoRoot, defaultSatDir } from './paths';

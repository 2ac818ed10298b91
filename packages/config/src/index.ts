export {
  loadConfig,
  type LoadConfigOptions,
  ConfigError,
  type Config,
  type StorageConfig,
  type BillingConfig,
  type StripeAccountConfig,
} from './config';
export { repoRoot, defaultSatDir } from './paths';
export { withSecretFiles } from './secret-files';
export { clientAddress, proxyTrust } from './trusted-proxies';
export { type MasterKeyring, type MasterKeyConfig } from './master-keys';

export { applyTestEnv, testConfig, TEST_ENV_DEFAULTS } from './env';
export { waitFor } from './wait-for';
export { parsePrometheusText, exportedNames, metricNamesIn, type Sample } from './prometheus-text';
export { createMerchantAccount, type MerchantAccount } from './merchant-account';
export { stackEnv, type StackEnvOptions } from './stack-env';

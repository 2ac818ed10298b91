export { applyTestEnv, testConfig, TEST_ENV_DEFAULTS } from './env';
export { waitFor } from './wait-for';
export { startPacSandbox, type RunningPacSandbox } from './pac-sandbox';

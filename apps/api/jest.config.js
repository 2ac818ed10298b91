module.exports = {
  ...require('../../jest.preset.js'),
  // The database migrated, and the workflows bundled once for every worker the suites start.
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // Tests drive a whole stack (stamps, PDFs, a worker) on two shared cores: 5 s is a tight default under load.
  testTimeout: 60_000,
  // The SDK's package entry is its build (dist/); sdk.test.ts drives its source, sdk-package.test.ts the tarball.
  moduleNameMapper: { '^@cfdi/sdk$': '<rootDir>/../../packages/sdk/src/index.ts' },
};

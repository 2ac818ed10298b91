module.exports = {
  ...require('../../jest.preset.js'),
  globalSetup: require.resolve('@cfdi/testkit/src/global-setup.ts'),
  // Tests drive a whole stack (stamps, PDFs, a worker) on two shared cores: 5 s is a tight default under load.
  testTimeout: 60_000,
  // The SDK's package entry is its build (dist/); sdk.test.ts drives its source, sdk-package.test.ts the tarball.
  moduleNameMapper: { '^@cfdi/sdk$': '<rootDir>/../../packages/sdk/src/index.ts' },
};

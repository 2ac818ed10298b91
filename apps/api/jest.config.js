module.exports = {
  ...require('../../jest.preset.js'),
  globalSetup: require.resolve('@cfdi/testkit/src/global-setup.ts'),
  // Tests drive a whole stack (stamps, PDFs, a worker) on two shared cores: 5 s is a tight default under load.
  testTimeout: 60_000,
};

module.exports = {
  ...require('../../jest.preset.js'),
  globalSetup: require.resolve('@cfdi/testkit/src/global-setup.ts'),
};

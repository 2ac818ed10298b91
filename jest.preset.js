// Shared jest settings: every workspace's jest.config.js spreads this.
// TypeScript is transpiled by swc (no type checking here; `npm run typecheck` does that).
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The suites share two cores with each other (turbo runs workspaces side by side): jest's 5 s default fails a
  // test that only waited its turn for a CPU (a CSD generated under load). Hangs still fail, 30 s later.
  testTimeout: 30_000,
  // `npm test` lists every failure again at the end of its output (a CI log may show only its tail).
  reporters: ['default', require.resolve('./scripts/failed-tests-reporter.cjs')],
};

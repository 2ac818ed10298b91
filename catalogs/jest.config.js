// Tests run against real PostgreSQL with the full SAT data (52k products): seconds, not milliseconds.
module.exports = { ...require('../jest.preset.js'), testTimeout: 60_000 };

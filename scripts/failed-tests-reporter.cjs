// A jest reporter that appends every failed test (and every suite that could not run) to the file named by
// CFDI_FAILED_TESTS_FILE, so `npm test` can list them at the very end of a long CI log.
const fs = require('node:fs');
const path = require('node:path');

const firstLines = (text, count) =>
  String(text ?? '')
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, count)
    .map((line) => `      ${line.trim()}`)
    .join('\n');

class FailedTestsReporter {
  onTestResult(_test, result) {
    const file = process.env.CFDI_FAILED_TESTS_FILE;
    if (!file) return;
    const suite = path.relative(path.resolve(__dirname, '..'), result.testFilePath);
    const lines = [];
    if (result.testExecError)
      lines.push(`  ${suite}: could not run\n${firstLines(result.testExecError.message, 6)}`);
    for (const test of result.testResults) {
      if (test.status !== 'failed') continue;
      lines.push(`  ${suite} › ${test.fullName}\n${firstLines(test.failureMessages.join('\n'), 6)}`);
    }
    if (lines.length) fs.appendFileSync(file, `${lines.join('\n')}\n`);
  }
}

module.exports = FailedTestsReporter;

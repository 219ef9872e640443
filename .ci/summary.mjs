// Prints the failed tests, then one closing line for every vitest report of this run:
// "ci: N passed, N failed". The failures come last so that a log cut to its tail still names them.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  const run = file.match(/ci-([^-]+)-/)?.[1] ?? file;
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
    // A file that failed to load has no failed test of its own, only its message.
    if (failedTests.length === 0 && suite.status === 'failed') {
      failures.push(`[${run}] ${relative(process.cwd(), suite.name)}\n    ${firstLines(suite.message)}`);
    }
    for (const test of failedTests) {
      failures.push(
        `[${run}] ${relative(process.cwd(), suite.name)} › ${test.fullName}\n    ${firstLines(test.failureMessages?.[0])}`,
      );
    }
  }
}
if (failures.length > 0) console.log(`failed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`ci: ${passed} passed, ${failed} failed, ${skipped} skipped`);

function firstLines(text = '') {
  return text.split('\n').slice(0, 4).join('\n    ');
}

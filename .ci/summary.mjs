// Prints each stage's time and each test report's slowest files, then the failed tests, then one
// closing line for every vitest report of this run: "ci: N passed, N failed". The failures come
// last so that a log cut to its tail still names them.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const args = process.argv.slice(2);
const stagesAt = args.indexOf('--stages');
const stagesFile = stagesAt >= 0 ? args.splice(stagesAt, 2)[1] : undefined;
if (stagesFile && existsSync(stagesFile)) {
  const lines = readFileSync(stagesFile, 'utf8').trim().split('\n').filter(Boolean);
  let total = 0;
  console.log('stage times:');
  for (const line of lines) {
    const [name, seconds, rc] = line.split(' ');
    total += Number(seconds);
    console.log(`  ${name.padEnd(16)} ${minutes(Number(seconds)).padStart(8)}${rc === '0' ? '' : `  (exit ${rc})`}`);
  }
  console.log(`  ${'total'.padEnd(16)} ${minutes(total).padStart(8)}`);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const file of args) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  printTimes(file, report);
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

// A report's wall time, the sum of its files' times (more than the wall time when files run side
// by side) and its five slowest files: where a slow run spent its time.
function printTimes(file, report) {
  const suites = (report.testResults ?? []).filter((suite) => suite.endTime && suite.startTime);
  if (suites.length === 0) return;
  const end = Math.max(...suites.map((suite) => suite.endTime));
  const sum = suites.reduce((total, suite) => total + (suite.endTime - suite.startTime), 0);
  const slowest = [...suites].sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime)).slice(0, 5);
  console.log(
    `${file.replace(/^\/tmp\/ci-/, '')}: ${minutes((end - report.startTime) / 1000)} wall, ${minutes(sum / 1000)} in ${suites.length} files; slowest:`,
  );
  for (const suite of slowest) {
    console.log(
      `  ${minutes((suite.endTime - suite.startTime) / 1000).padStart(8)}  ${relative(process.cwd(), suite.name)}`,
    );
  }
}

function minutes(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
}

function firstLines(text = '') {
  return text.split('\n').slice(0, 4).join('\n    ');
}

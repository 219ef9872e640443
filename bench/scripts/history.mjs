// The benches' history: one JSON-lines file per benchmark, bench/history/<bench>.jsonl, one run per
// line in date order, each line the run's JSON as the bench wrote it. Plain Node, no dependencies.
//
//   node bench/scripts/history.mjs latest <bench>   the newest run of <bench>, pretty-printed
//   node bench/scripts/history.mjs count             how many runs each history holds
//   node bench/scripts/history.mjs convert [dir]     folds the old one-file-per-run results
//                                                    (bench/results/*.json by default) into the
//                                                    histories; runs already there are not repeated
//
// The benches record a run with appendRun (bench/lib.ts's saveResults, bench/web-bundles.ts).
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const historyDir = path.join(benchDir, 'history');

/** The history file of one benchmark (api, search, gallery, live, web, bundles, upload, hostile, export). */
export const historyFile = (bench) => path.join(historyDir, `${bench}.jsonl`);

/** When a run was taken: its own timestamp (`date`, or `measuredAt` for bundles), else its file's name. */
export const runDate = (run) => run.date ?? run.measuredAt ?? run.file ?? '';

/** Appends one run, as one line, to bench/history/<bench>.jsonl; returns the file's path. */
export function appendRun(bench, run) {
  mkdirSync(historyDir, { recursive: true });
  const file = historyFile(bench);
  appendFileSync(file, `${JSON.stringify(run)}\n`);
  return file;
}

/** Every run of one benchmark, oldest first (as recorded). */
export function readRuns(bench) {
  const file = historyFile(bench);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** The newest run of one benchmark, or undefined. */
export const latestRun = (bench) => readRuns(bench).at(-1);

/** The benchmark an old result file belongs to: `api-2026-…json` → api; `web-bundles.json` → bundles. */
function benchOfFile(name) {
  const bench = name.replace(/\.json$/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
  return bench === 'web-bundles' ? 'bundles' : bench;
}

/** Folds a folder of one-file-per-run results into the histories, each sorted by date. */
export function convert(resultsDir = path.join(benchDir, 'results')) {
  const byBench = new Map();
  for (const name of readdirSync(resultsDir).sort()) {
    if (!name.endsWith('.json')) continue;
    const run = JSON.parse(readFileSync(path.join(resultsDir, name), 'utf8'));
    const line = run.date || run.measuredAt ? run : { file: name, ...run };
    const bench = benchOfFile(name);
    if (!byBench.has(bench)) byBench.set(bench, []);
    byBench.get(bench).push(line);
  }
  mkdirSync(historyDir, { recursive: true });
  const counts = {};
  for (const [bench, runs] of byBench) {
    const seen = new Set();
    const all = [...readRuns(bench), ...runs].filter((run) => {
      const text = JSON.stringify(run);
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    });
    all.sort((a, b) => (runDate(a) < runDate(b) ? -1 : runDate(a) > runDate(b) ? 1 : 0));
    writeFileSync(historyFile(bench), all.map((run) => `${JSON.stringify(run)}\n`).join(''));
    counts[bench] = all.length;
  }
  return counts;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, arg] = process.argv.slice(2);
  if (command === 'convert') {
    console.log(convert(arg ? path.resolve(arg) : undefined));
  } else if (command === 'latest' && arg) {
    const run = latestRun(arg);
    if (!run) {
      console.error(`no runs in ${path.relative(process.cwd(), historyFile(arg))}`);
      process.exit(1);
    }
    console.log(JSON.stringify(run, null, 2));
  } else if (command === 'count') {
    const files = existsSync(historyDir) ? readdirSync(historyDir).filter((f) => f.endsWith('.jsonl')) : [];
    for (const bench of files.map((f) => f.replace(/\.jsonl$/, '')).sort())
      console.log(`${bench}\t${readRuns(bench).length}`);
  } else {
    console.error('usage: node bench/scripts/history.mjs latest <bench> | count | convert [results dir]');
    process.exit(1);
  }
}

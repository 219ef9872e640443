// pnpm bench:web — (1) bundle sizes per route from the vite build manifest (raw and gzip: the
// app's entry, and each lazy route's own chunks beyond it); (2) Lighthouse (from npm, with
// Debian's Chromium via chrome-launcher) on the landing page (signed out) and the dashboard
// (signed in: the session cookie goes in extraHeaders): performance and accessibility scores,
// target 95+. Lighthouse's desktop preset (simulated throttling) so the scores do not depend on
// how busy this machine is; the slowest audits are listed for each page.
// Baseline for the bundles: the entry alone (what every route pays). Options: CHROME_PATH.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { distDir } from '../web/e2e/server.ts';
import { here, machine, requireApi, round, saveResults, signUp, startServer } from './lib.ts';

process.env.CHROME_PATH ??= '/usr/bin/chromium';
const lighthouse = (await import(requireApi.resolve('lighthouse'))).default as typeof import('lighthouse').default;
const desktopConfig = (await import(requireApi.resolve('lighthouse/core/config/desktop-config.js'))).default;
const chromeLauncher = requireApi('chrome-launcher') as typeof import('chrome-launcher');

// ── (1) build with a manifest and size every route ──
const webDir = path.join(here, '../web');
console.log('Building the web app…');
execFileSync(
  path.join(webDir, 'node_modules/.bin/vite'),
  ['build', '--outDir', distDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
  { cwd: webDir, stdio: 'inherit' },
);
type Chunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
};
const manifest = JSON.parse(readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
const size = (file: string) => {
  const bytes = readFileSync(path.join(distDir, file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
/** The chunk's files and everything it imports statically, minus `except`. */
function closure(key: string, except = new Set<string>()) {
  const files = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || except.has(chunk.file) || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) if (!except.has(css)) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return files;
}
const total = (files: Set<string>) =>
  [...files].reduce(
    (sum, f) => {
      const s = size(f);
      return { raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip };
    },
    { raw: 0, gzip: 0 },
  );
const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry) as string;
const entryFiles = closure(entryKey);
const kb = (bytes: number) => round(bytes / 1024, 1);
const entry = total(entryFiles);
const routes = Object.entries(manifest)
  .filter(([, c]) => c.isDynamicEntry)
  .map(([key, c]) => {
    const own = total(closure(key, entryFiles));
    return {
      route: (c.src ?? key).replace(/^src\//, ''),
      rawKB: kb(own.raw),
      gzipKB: kb(own.gzip),
      withEntryGzipKB: kb(own.gzip + entry.gzip),
    };
  })
  .sort((a, b) => b.gzipKB - a.gzipKB);
console.log(`\nEntry (every route): ${kb(entry.raw)} KB, ${kb(entry.gzip)} KB gzip`);
console.log('Lazy route chunks beyond the entry (gzip; with the entry):');
for (const r of routes)
  console.log(`  ${r.route.padEnd(52)} ${String(r.gzipKB).padStart(7)} KB  (${r.withEntryGzipKB} KB)`);

// ── (2) Lighthouse on the landing page and the dashboard ──
const server = await startServer({ webDistDir: distDir });
const viewer = await signUp(server.origin, server.db);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
async function audit(name: string, extraHeaders?: Record<string, string>) {
  const result = await lighthouse(
    `${server.origin}/`,
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      extraHeaders,
    },
    desktopConfig,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${name}`);
  const failing = Object.values(lhr.audits)
    .filter(
      (a) =>
        a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual',
    )
    .map((a) => `${a.id} (${a.score})`);
  return {
    page: name,
    finalUrl: lhr.finalDisplayedUrl,
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    firstContentfulPaintMs: round(lhr.audits['first-contentful-paint']?.numericValue ?? 0, 0),
    largestContentfulPaintMs: round(lhr.audits['largest-contentful-paint']?.numericValue ?? 0, 0),
    totalBlockingTimeMs: round(lhr.audits['total-blocking-time']?.numericValue ?? 0, 0),
    cumulativeLayoutShift: round(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0, 3),
    belowNinety: failing,
  };
}
const landing = await audit('landing (signed out)');
const dashboard = await audit('dashboard (signed in)', { cookie: viewer.cookie });
chrome.kill();
await server.close();

console.log('\nLighthouse (desktop preset), target 95+:');
for (const r of [landing, dashboard]) {
  console.log(
    `  ${r.page.padEnd(24)} performance ${r.performance}  accessibility ${r.accessibility}   FCP ${r.firstContentfulPaintMs} ms  LCP ${r.largestContentfulPaintMs} ms  TBT ${r.totalBlockingTimeMs} ms  CLS ${r.cumulativeLayoutShift}`,
  );
  if (r.belowNinety.length) console.log(`    audits below 0.9: ${r.belowNinety.join(', ')}`);
}
await saveResults('web', {
  date: new Date().toISOString(),
  machine: machine(),
  bundles: { entry: { rawKB: kb(entry.raw), gzipKB: kb(entry.gzip), files: [...entryFiles] }, routes },
  lighthouse: { preset: 'desktop', landing, dashboard },
});
process.exit(0);

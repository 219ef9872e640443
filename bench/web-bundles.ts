// pnpm bench:bundles — JavaScript a browser really downloads for the landing page (signed out) and
// for the signed-in dashboard, gzipped, against the budgets of issue 5 (100 KB and 200 KB).
// Builds the web app, starts the real server, loads each page in Chromium and sums every script
// response. Prints the figures and records them as one more line of bench/history/bundles.jsonl.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { buildWeb, startServer } from '../web/e2e/server.ts';
import { appendRun } from './scripts/history.mjs';

const requireWeb = createRequire(new URL('../web/package.json', import.meta.url));
const { chromium } = requireWeb('playwright-core') as typeof import('playwright-core');

const BUDGETS = { landing: 100 * 1024, dashboard: 200 * 1024 };

interface Measure {
  page: string;
  /** Each script's gzipped size, largest first. */
  files: { name: string; gzipBytes: number }[];
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  budgetBytes: number;
}

type Page = import('playwright-core').Page;

async function measure(page: Page, name: keyof typeof BUDGETS, open: () => Promise<void>): Promise<Measure> {
  const scripts = new Map<string, Buffer>();
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      scripts.set(response.url(), await response.body());
    } catch {}
  });
  await open();
  // Chunks that load just after first paint (lazy slots) count too.
  await page.waitForTimeout(1500);
  let rawBytes = 0;
  let gzipBytes = 0;
  const files: Measure['files'] = [];
  for (const [url, body] of scripts) {
    const gzipped = gzipSync(body, { level: 9 }).length;
    rawBytes += body.length;
    gzipBytes += gzipped;
    files.push({ name: new URL(url).pathname.split('/').pop() ?? url, gzipBytes: gzipped });
  }
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { page: name, files, scripts: scripts.size, rawBytes, gzipBytes, budgetBytes: BUDGETS[name] };
}

buildWeb();
const server = await startServer({ LOG_LEVEL: 'error' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
});
try {
  const results: Measure[] = [];
  const visitor = await browser.newContext({ baseURL: server.baseURL });
  const landing = await visitor.newPage();
  results.push(
    await measure(landing, 'landing', async () => {
      await landing.goto('/');
      await landing.getByText('Authorized Access Only').waitFor();
    }),
  );

  const member = await browser.newContext({ baseURL: server.baseURL });
  const user = { name: 'Bench User', email: `bench-${Date.now()}@example.com`, password: 'a long enough password' };
  await member.request.post('/api/auth/signup', { data: user });
  const { csrfToken } = (await (await member.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  await member.request.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${server.baseURL}/` },
    maxRedirects: 0,
  });
  const dashboard = await member.newPage();
  results.push(
    await measure(dashboard, 'dashboard', async () => {
      await dashboard.goto('/');
      await dashboard.getByText('Most Recent Galleries').waitFor();
    }),
  );

  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log('page       scripts   raw KB   gzip KB   budget KB   gzip/budget');
  for (const r of results) {
    console.log(
      `${r.page.padEnd(10)} ${String(r.scripts).padStart(7)} ${kb(r.rawBytes).padStart(8)} ${kb(r.gzipBytes).padStart(9)} ${kb(r.budgetBytes).padStart(11)} ${(r.gzipBytes / r.budgetBytes).toFixed(2).padStart(13)}`,
    );
    console.log(
      `  largest: ${r.files
        .slice(0, 6)
        .map((f) => `${f.name} ${kb(f.gzipBytes)}`)
        .join(', ')}`,
    );
  }
  appendRun('bundles', { measuredAt: new Date().toISOString(), results });
} finally {
  await browser.close();
  await server.stop();
}

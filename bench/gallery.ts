// pnpm bench:gallery — a gallery of 10,000 photos: (1) the first page of its grid as the gallery
// screen asks for it (persisted GalleryScreenQuery over GraphQL: its first page with totalCount), p50/p95,
// against the same data read by hand-written SQL over `pg` in the same run, and the same SQL behind
// a bare node:http server that checks the session row first (what HTTP and a session cost); (2) the screen's time
// to first thumbnails in Debian's Chromium (/usr/bin/chromium via playwright-core): from navigation
// to the first grid thumbnail painted (Element Timing), with the built web app served by the real server.
// Runs on PostgreSQL (a throw-away database). The 10,000 photo records share the bytes of 24
// real uploads (with real thumbnails), so the browser loads real images.
// Options (environment): BENCH_PHOTOS (10000), BENCH_ROUNDS (30 API, 5 browser), BENCH_PG_URL,
// BENCH_PROFILE=<dir>: a CPU profile of this thread (the app) while it answers the measured grid pages,
// BENCH_TRACE=<file>: a Chromium trace (Perfetto or chrome://tracing read it) of the last browser round.
import './production-env.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchBrowser } from '../web/e2e/chromium.ts';
import { buildWeb, distDir } from '../web/e2e/server.ts';
import {
  machine,
  n,
  persistedOperation,
  persistedOperationText,
  pg,
  round,
  saveResults,
  serverOnPostgres,
  signUp,
  solidJpeg,
  startProfile,
  summary,
  timeEach,
} from './lib.ts';

const PHOTOS = n('BENCH_PHOTOS', 10_000);
const ROUNDS = n('BENCH_ROUNDS', 30);
const BROWSER_ROUNDS = Math.max(3, Math.round(ROUNDS / 6));
const TRACE_FILE = process.env.BENCH_TRACE;
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'loading', 'v8'];
const GRID_DOC_ID = persistedOperation('query GalleryScreenQuery(');

console.log('Building the web app…');
buildWeb();
const server = await serverOnPostgres('gallery', { webDistDir: distDir });
const viewer = await signUp(server.origin, server.db);

// ── 24 real photos through the upload path (so thumbnails exist), then 10,000 records ──
const objectPaths: string[] = [];
for (let i = 0; i < 24; i++) {
  const photo = await solidJpeg(1600, 1067, { r: 40 + i * 8, g: 90, b: 160 - i * 4 }, 80);
  const answer = await fetch(`${server.origin}/api/objects/upload`, {
    method: 'POST',
    headers: { cookie: viewer.cookie },
  });
  const { uploadURL } = (await answer.json()) as { uploadURL: string };
  const put = await fetch(uploadURL, { method: 'PUT', headers: { cookie: viewer.cookie }, body: photo });
  if (!put.ok) throw new Error(`upload refused: ${put.status} ${await put.text()}`);
  objectPaths.push(new URL(uploadURL).pathname);
}
// Thumbnails are made by jobs after the uploads answer: the screen is measured once they exist.
while ((await server.db.upload.count({ where: { metadata: { path: ['processing'], equals: true } } })) > 0) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const db = new pg.Client({ connectionString: server.databaseUrl });
await db.connect();
const gallery = await db.query<{ id: string }>(
  `INSERT INTO "Gallery" (id, "ownerId", name, tags, status, "updatedAt")
   VALUES (gen_random_uuid(), $1, 'Warehouse district, 10k', ARRAY['industrial'], 'active', now()) RETURNING id`,
  [viewer.userId],
);
const galleryId = gallery.rows[0]?.id as string;
await db.query(
  `WITH files AS (
     INSERT INTO "File" (id, "ownerId", name, "originalName", "mimeType", size, "objectUrl", "objectPath", tags, metadata, "createdAt", "updatedAt")
     SELECT gen_random_uuid(), $1, 'warehouse_' || lpad(i::text, 5, '0') || '.jpg', 'DSC_' || lpad(i::text, 5, '0') || '.jpg',
            'image/jpeg', 350000 + i, ($2::text[])[1 + i % 24], ($2::text[])[1 + i % 24],
            ARRAY[(ARRAY['exterior','interior','night','day'])[1 + i % 4]],
            '{"image": {"width": 1600, "height": 1067}, "thumbnails": {"grid": true, "grid2x": true, "preview": true}}'::jsonb,
            now() - i * interval '1 second', now()
     FROM generate_series(1, $3::int) i RETURNING id, name)
   INSERT INTO "GalleryItem" (id, "galleryId", "fileId", position, "addedById")
   SELECT gen_random_uuid(), $4, id, row_number() OVER (ORDER BY name) - 1, $1 FROM files`,
  [viewer.userId, objectPaths, PHOTOS, galleryId],
);
await db.query('ANALYZE');

// ── (1) the grid's first page: GraphQL vs raw SQL ──
const globalId = Buffer.from(`Gallery:${galleryId}`).toString('base64');
const gridBody = JSON.stringify({ doc_id: GRID_DOC_ID, variables: { id: globalId } });
const gridQuery = async () => {
  const answer = await fetch(`${server.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: viewer.cookie },
    body: gridBody,
  });
  const body = (await answer.json()) as {
    data?: { gallery: { items: { totalCount: number; edges: unknown[] } } };
    errors?: unknown;
  };
  if (!body.data) throw new Error(`grid query failed: ${JSON.stringify(body.errors)}`);
  return body.data.gallery.items;
};
const first = await gridQuery();
// The baseline reads as many items as the screen's first page holds (the server caps a page at 100).
const pageSize = first.edges.length;
const asked = Number(/items\(first: (\d+)\)/.exec(persistedOperationText(GRID_DOC_ID))?.[1]);
if (first.totalCount !== PHOTOS || pageSize !== Math.min(asked, 100))
  throw new Error(`expected a page of ${PHOTOS} photos, got ${pageSize} of ${first.totalCount}`);
const rawGrid = async (userId = viewer.userId) => {
  const g = await db.query(
    `SELECT g.*, (SELECT count(*) FROM "GalleryItem" i WHERE i."galleryId" = g.id)::int AS "photoCount"
     FROM "Gallery" g WHERE g.id = $1 AND g."ownerId" = $2`,
    [galleryId, userId],
  );
  const items = await db.query(
    `SELECT i.id, i."fileId", i.position, f.name, f."mimeType", f."objectPath", f.size, f.tags, f.metadata
     FROM "GalleryItem" i JOIN "File" f ON f.id = i."fileId"
     WHERE i."galleryId" = $1 ORDER BY i.position, i.id LIMIT $2`,
    [galleryId, pageSize + 1],
  );
  return JSON.stringify({ gallery: g.rows[0], items: items.rows.slice(0, pageSize) });
};
// The same statements behind a bare node:http server that first checks the session row: the least
// an answer over HTTP to a signed-in person must do (the app remembers decoded cookies, so the
// session id comes as is).
const session = await db.query<{ id: string }>('SELECT id FROM "Session" WHERE "userId" = $1 LIMIT 1', [viewer.userId]);
const sessionId = session.rows[0]?.id as string;
const bare = createServer(async (request, response) => {
  const found = await db.query<{ userId: string }>(
    `SELECT "userId" FROM "Session" WHERE id = $1::uuid AND "expiresAt" > (now() AT TIME ZONE 'UTC')`,
    [request.headers['x-session']],
  );
  const userId = found.rows[0]?.userId;
  if (!userId) return void response.writeHead(401).end();
  response.writeHead(200, { 'content-type': 'application/json' }).end(await rawGrid(userId));
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
const httpGrid = async () => {
  const answer = await fetch(bareUrl, { headers: { 'x-session': sessionId } });
  if (!answer.ok) throw new Error(`bare server refused: ${answer.status}`);
  return answer.json();
};
for (let i = 0; i < 5; i++) {
  await gridQuery();
  await rawGrid();
  await httpGrid();
}
const profiler = await startProfile();
const appTimes = await timeEach(ROUNDS, gridQuery);
await profiler?.save('gallery grid page (app)');
const rawTimes = await timeEach(ROUNDS, () => rawGrid());
const httpTimes = await timeEach(ROUNDS, httpGrid);
bare.close();

// ── (2) time to first thumbnails in Chromium ──
const browser = await launchBrowser();
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.addCookies(
  [...viewer.cookies].map(([name, value]) => ({
    name,
    value,
    url: server.origin,
    httpOnly: true,
    sameSite: 'Lax' as const,
  })),
);
const screenTimes: number[] = [];
const checkedTimes: number[] = [];
const phases: Record<string, number | undefined>[] = [];
const thumbnailsShown: number[] = [];
for (let i = 0; i < BROWSER_ROUNDS + 1; i++) {
  const page = await context.newPage();
  // With BENCH_PROFILE, the last round's page is profiled too: where the renderer's thread goes.
  const pageProfile =
    i === BROWSER_ROUNDS
      ? await startProfile(async () => {
          const cdp = await context.newCDPSession(page);
          return { send: (method, params) => cdp.send(method as 'Profiler.start', params), close: () => cdp.detach() };
        }, 100)
      : null;
  // When the browser painted the first thumbnail (Element Timing: the grid's images carry
  // elementtiming), from the navigation's start. A check run in the page would come only once
  // the page's main thread is free, which a page rendered on the server shows before.
  await page.addInitScript(() => {
    new PerformanceObserver((list) => {
      const holder = window as unknown as { firstThumbnailPaint?: number };
      for (const entry of list.getEntries() as (PerformanceEntry & { renderTime: number; identifier: string })[]) {
        if (entry.identifier === 'thumbnail' && holder.firstThumbnailPaint === undefined) {
          holder.firstThumbnailPaint = entry.renderTime || entry.startTime;
        }
      }
    }).observe({ type: 'element', buffered: true });
  });
  // With BENCH_TRACE, the last round is traced too: the browser's own threads (parse, layout,
  // image decodes, raster), which a CPU profile of the page's scripts does not show.
  const tracing = i === BROWSER_ROUNDS && TRACE_FILE;
  if (tracing) await browser.startTracing(page, { path: TRACE_FILE, categories: TRACE_CATEGORIES });
  const started = Date.now();
  await page.goto(`${server.origin}/galleries/${globalId}`);
  const painted = await page.waitForFunction(
    () => (window as unknown as { firstThumbnailPaint?: number }).firstThumbnailPaint,
    undefined,
    { timeout: 60_000 },
  );
  const ms = Math.round((await painted.jsonValue()) as number);
  const checkedMs = Date.now() - started;
  // Where the time went: the page's first byte and its end (the server's answers and render), the
  // first thumbnail's request and arrival, the first paint.
  const phase = await page.evaluate(() => {
    const [page] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const image = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
      e.name.includes('variant=grid'),
    );
    const paint = performance.getEntriesByName('first-paint')[0];
    return {
      pageFirstByte: page?.responseStart,
      pageEnd: page?.responseEnd,
      thumbnailAsked: image?.startTime,
      thumbnailArrived: image?.responseEnd,
      firstPaint: paint?.startTime,
    };
  });
  await pageProfile?.save(`gallery screen (${ms} ms)`);
  if (tracing) {
    await browser.stopTracing();
    console.log(`Chromium trace of a round of ${ms} ms: ${TRACE_FILE}`);
  }
  const shown = await page.evaluate(
    () => [...document.querySelectorAll('img')].filter((img) => img.src.includes('variant=grid')).length,
  );
  if (i > 0) {
    // The first load fills the browser's cache of the app's scripts: a returning visitor's case.
    screenTimes.push(ms);
    checkedTimes.push(checkedMs);
    phases.push(phase);
    thumbnailsShown.push(shown);
  }
  await page.close();
}
await browser.close();

const results = {
  date: new Date().toISOString(),
  machine: machine('postgres'),
  photos: PHOTOS,
  gridPage: {
    items: pageSize,
    asked,
    app: summary(appTimes),
    rawSql: summary(rawTimes),
    ratioP50: round(summary(rawTimes).p50Ms / summary(appTimes).p50Ms, 3),
    overHttp: summary(httpTimes),
    ratioToHttpP50: round(summary(httpTimes).p50Ms / summary(appTimes).p50Ms, 3),
  },
  screen: {
    ...summary(screenTimes),
    gridImagesInPage: thumbnailsShown.at(-1),
    note: 'navigation start to the first grid thumbnail painted (Element Timing), warm browser cache for the scripts',
    // Until 2026-12-02 the figure: a check in the page that an image had loaded, which runs once the main thread is free.
    checkedInPage: summary(checkedTimes),
    // Each phase's p50 across the rounds, ms from the navigation's start.
    phasesP50Ms: Object.fromEntries(
      Object.keys(phases[0] ?? {}).map((name) => [
        name,
        summary(phases.map((p) => p[name]).filter((v): v is number => v !== undefined)).p50Ms,
      ]),
    ),
  },
};
console.log(`Gallery of ${PHOTOS.toLocaleString('en')} photos on PostgreSQL, load ${results.machine.load}\n`);
console.log(
  `  grid first page (GraphQL, ${pageSize} items + totalCount)  p50 ${results.gridPage.app.p50Ms} ms  p95 ${results.gridPage.app.p95Ms} ms`,
);
console.log(
  `  raw SQL baseline                                     p50 ${results.gridPage.rawSql.p50Ms} ms  p95 ${results.gridPage.rawSql.p95Ms} ms   ratio (raw/app p50) ${results.gridPage.ratioP50}`,
);
console.log(
  `  the same over bare node:http with the session row   p50 ${results.gridPage.overHttp.p50Ms} ms  p95 ${results.gridPage.overHttp.p95Ms} ms   ratio (http/app p50) ${results.gridPage.ratioToHttpP50}`,
);
console.log(
  `  screen: first thumbnail painted in Chromium  p50 ${results.screen.p50Ms} ms  p95 ${results.screen.p95Ms} ms  (${results.screen.gridImagesInPage} grid images in the page; seen loaded by a check in the page at p50 ${results.screen.checkedInPage.p50Ms} ms)\n    phases (p50, ms): ${Object.entries(
    results.screen.phasesP50Ms,
  )
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ')}`,
);
await saveResults('gallery', results);
await db.end();
await server.close();
process.exit(0);

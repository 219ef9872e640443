// bench:web's third part: a click in the sidebar to the screen's content, per screen, in Debian's
// Chromium (playwright-core), against the built web app served by the real server. Each round is a
// fresh browser context (cold HTTP cache, so every screen's code chunk is fetched on its first visit)
// that opens the dashboard, then clicks through the sidebar. For every screen it reads the page's
// own Resource Timing: when the screen's GraphQL request started and when the last JavaScript
// fetched for it arrived, so it tells whether data and code loaded side by side.
import type { Page } from 'playwright-core';
import { launchBrowser } from '../web/e2e/chromium.ts';
import type { Db } from '../api/src/infra/db/database.ts';
import { percentile, round } from './lib.ts';

// More rows than the dashboard's short lists show (6 galleries, 5 of the others), so a screen's
// content is told apart from the dashboard's preview of it.
const ROWS = 8;
const names = (what: string) => Array.from({ length: ROWS }, (_, i) => `Bench ${what} ${i + 1}`);
const galleries = names('Gallery');
const folders = names('Folder');
const projects = names('Project');
const tasks = names('Task');

type Screen = { link: string; path: string; shows: string[] };
const screens = (email: string): Screen[] => [
  { link: 'Galleries', path: '/galleries', shows: galleries },
  { link: 'File Manager', path: '/files', shows: folders },
  // The projects screen opens on the newest three, each with its crew.
  { link: 'Projects', path: '/projects', shows: [projects[ROWS - 1] as string, 'Crew (1)'] },
  { link: 'Tasks', path: '/tasks', shows: tasks },
  // The settings screen shows the person's e-mail address once their profile has loaded.
  { link: 'Settings', path: '/settings', shows: [email] },
  { link: 'Dashboard', path: '/', shows: galleries.slice(-3) },
];

/** Data for every screen, through the app's own REST paths (folders have none: straight in the table). */
async function seed(origin: string, cookie: string, db: Pick<Db, 'folder'>, userId: string) {
  const post = async (path: string, body: object) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path} refused: ${response.status} ${await response.text()}`);
  };
  for (let i = 0; i < ROWS; i++) {
    await post('/api/galleries', { name: galleries[i] });
    await post('/api/projects', { name: projects[i], type: 'movie' });
    await post('/api/tasks', { title: tasks[i], priority: 'medium' });
    await db.folder.create({ data: { name: folders[i] as string, ownerId: userId } });
  }
}

/** Waits for the screen's content; answers the page clock's time it was first seen (one frame's precision). */
function contentShown(page: Page, screen: Screen) {
  return page
    .waitForFunction(
      ({ path, shows }) => {
        const main = document.querySelector('main');
        const ready = location.pathname === path && shows.every((text) => main?.textContent?.includes(text));
        return ready ? performance.now() : false;
      },
      { path: screen.path, shows: screen.shows },
      { polling: 'raf', timeout: 30_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
    .catch(async (error) => {
      const main = await page
        .locator('main')
        .textContent()
        .catch(() => null);
      throw new Error(`${screen.link} did not show its content at ${page.url()}; the page shows: ${main}`, {
        cause: error,
      });
    });
}

type Visit = {
  screen: string;
  ms: number;
  codeMs: number | null;
  dataStartMs: number | null;
  dataBeforeCode: boolean | null;
  /** When each GraphQL answer arrived. */
  dataMs: number[];
};

async function visit(page: Page, screen: Screen): Promise<Visit> {
  // A request is this screen's if it started after this point (an entry is only listed once its
  // response has ended, so the previous screen's late answers are left out by their start).
  const from = await page.evaluate(() => {
    performance.clearResourceTimings();
    return performance.now();
  });
  const shown = contentShown(page, screen);
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen.link, exact: true });
  await link.click();
  const shownAt = await shown;
  const timing = await page.evaluate((from) => {
    const clickedAt = (window as unknown as { benchClickAt: number }).benchClickAt;
    const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
      (e) => e.startTime >= from,
    );
    const scripts = entries.filter((e) => /\.(m?js)(\?|$)/.test(e.name));
    const data = entries.filter((e) => new URL(e.name).pathname === '/graphql');
    return {
      clickedAt,
      codeEnd: scripts.length ? Math.max(...scripts.map((e) => e.responseEnd)) : null,
      dataStart: data.length ? Math.min(...data.map((e) => e.startTime)) : null,
      dataEnds: data.map((e) => e.responseEnd),
    };
  }, from);
  const since = (t: number | null) => (t === null ? null : round(t - timing.clickedAt, 1));
  return {
    screen: screen.link,
    ms: round(shownAt - timing.clickedAt, 1),
    codeMs: since(timing.codeEnd),
    dataStartMs: since(timing.dataStart),
    dataBeforeCode: timing.codeEnd === null || timing.dataStart === null ? null : timing.dataStart < timing.codeEnd,
    dataMs: timing.dataEnds.map((t) => round(t - timing.clickedAt, 1)),
  };
}

export async function measureNavigation(options: {
  origin: string;
  cookies: Map<string, string>;
  db: Pick<Db, 'folder'>;
  userId: string;
  email: string;
  rounds: number;
}) {
  const { origin, cookies } = options;
  await seed(origin, [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), options.db, options.userId);
  const SCREENS = screens(options.email);
  const browser = await launchBrowser();
  const visits: Visit[] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      const context = await browser.newContext({ baseURL: origin, viewport: { width: 1280, height: 800 } });
      await context.addCookies([...cookies].map(([name, value]) => ({ name, value, url: origin })));
      // The click's own time stamp, on the page's clock, is where each measurement starts.
      await context.addInitScript(() =>
        document.addEventListener(
          'click',
          (event) => {
            (window as unknown as { benchClickAt: number }).benchClickAt = event.timeStamp;
          },
          { capture: true },
        ),
      );
      const page = await context.newPage();
      await page.goto('/');
      await contentShown(page, SCREENS.at(-1) as Screen);
      for (const screen of SCREENS) visits.push(await visit(page, screen));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return SCREENS.map(({ link }) => {
    const mine = visits.filter((v) => v.screen === link);
    const of = (pick: (v: Visit) => number | null) => {
      const values = mine.map(pick).filter((x): x is number => x !== null);
      return values.length ? round(percentile(values, 50), 1) : null;
    };
    return {
      screen: link,
      rounds: mine.length,
      clickToContentP50Ms: of((v) => v.ms),
      clickToContentP95Ms: round(
        percentile(
          mine.map((v) => v.ms),
          95,
        ),
        1,
      ),
      codeLoadedP50Ms: of((v) => v.codeMs),
      dataRequestedP50Ms: of((v) => v.dataStartMs),
      dataAnsweredP50Ms: of((v) => (v.dataMs.length ? Math.max(...v.dataMs) : null)),
      // In how many rounds the GraphQL request left before the screen's last code chunk arrived.
      dataBeforeCode: `${mine.filter((v) => v.dataBeforeCode).length}/${mine.filter((v) => v.dataBeforeCode !== null).length}`,
    };
  });
}

export function printNavigation(rows: Awaited<ReturnType<typeof measureNavigation>>) {
  console.log('\nSidebar click → screen content in Chromium (fresh context each round; p50, p95):');
  for (const r of rows)
    console.log(
      `  ${r.screen.padEnd(13)} ${String(r.clickToContentP50Ms).padStart(7)} ms  p95 ${String(r.clickToContentP95Ms).padStart(7)} ms   code loaded ${r.codeLoadedP50Ms ?? '–'} ms, data requested ${r.dataRequestedP50Ms ?? '–'} ms, answered ${r.dataAnsweredP50Ms ?? '–'} ms; request before code: ${r.dataBeforeCode}`,
    );
}

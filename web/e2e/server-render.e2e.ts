import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageRenderDir } from '../../api/src/http/page-render.ts';
import { TIME_ZONE_COOKIE } from '../../api/src/users/contract.ts';
import { appPath, globalIdOf } from '../src/lib/globalId.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { distDir } from './server.ts';
import { baseURL, MOBILE, sharedBrowser, signedInContext } from './support.ts';

// A signed-in screen's page at its bare address comes rendered from the answers it carries
// (web/src/server/render.tsx, api/src/http/web-page.ts): it shows before any script has run, and
// the browser then takes that very page over instead of rendering it again (main.tsx).

const browser = sharedBrowser();

/**
 * A browser that has opened the app before: the app left it the browser's time zone (main.tsx),
 * without which the server leaves a page to the browser.
 */
async function seenBefore(context: BrowserContext) {
  await context.addCookies([{ name: TIME_ZONE_COOKIE, value: 'UTC', url: baseURL }]);
  return context;
}

/** Someone with a gallery of one photo; the screens' addresses with each one's heading. */
async function personWithAGallery() {
  const context = await seenBefore((await signedInContext(browser())).context);
  const made = await context.request.post('/api/galleries', { data: { name: 'Rendered Gallery' } });
  const gallery = (await made.json()) as { id: string };
  const file = await uploadThroughApi(context.request, 'harbour.jpg', await makePhoto({ colour: '#1d4ed8' }));
  await context.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [file.id] } });
  const galleryPath = appPath.gallery(globalIdOf('Gallery', gallery.id));
  const screens = {
    '/': 'Dashboard',
    '/galleries': 'Photo Galleries',
    [galleryPath]: 'Rendered Gallery',
    '/files': 'File Manager',
    '/tasks': 'Task Management',
    '/projects': 'Projects',
    '/settings': 'Account Settings',
  };
  return { context, galleryPath, screens };
}

/** The same person's session in a browser that runs no script at all. */
async function withoutScripts(context: BrowserContext, viewport = { width: 1280, height: 800 }) {
  const noScripts = await browser().newContext({ baseURL, viewport, javaScriptEnabled: false });
  await noScripts.addCookies(await context.cookies());
  return noScripts;
}

/** What the page reports as going wrong: React reports a page it could not take over this way. */
function problems(page: Page) {
  const seen: string[] = [];
  page.on('console', (message) => message.type() === 'error' && seen.push(message.text()));
  page.on('pageerror', (error) => seen.push(error.message));
  return seen;
}

/** Holds the app's scripts from `page` until the answer is called: the page stays as the server sent it. */
async function holdScripts(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Marks the heading the server sent, before any of the app's code can have run (an init script). */
const markServerHeading = () => {
  document.addEventListener('readystatechange', () => {
    if (document.readyState !== 'interactive') return;
    const heading = document.querySelector('main h1, main h2');
    if (heading) heading.setAttribute('data-from-server', '');
  });
};

/** Whether React has taken over the heading the server sent (it marks each element it takes over). */
const hydrated = () => {
  const heading = document.querySelector('main [data-from-server]');
  return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber$'));
};

describe('screens rendered on the server', () => {
  it('shows every screen at its bare address from the page alone, with no script run', async () => {
    const { context, galleryPath, screens } = await personWithAGallery();
    const noScripts = await withoutScripts(context);
    for (const [path, heading] of Object.entries(screens)) {
      const page = await noScripts.newPage();
      await page.goto(path);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor({ timeout: 5_000 });
      // The shell is there too: its navigation and the person's storage.
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      expect(await page.locator('.boot').count(), path).toBe(0);
      await page.close();
    }
    // The gallery's first thumbnail is in the page itself, not left for a script to add.
    const page = await noScripts.newPage();
    await page.goto(galleryPath);
    const thumbnail = page.getByTestId('photo-tile').first().locator('img');
    expect(await thumbnail.getAttribute('src')).toContain('variant=grid');
    await page.waitForFunction(() => [...document.images].some((image) => image.complete && image.naturalWidth > 0));
    // An address with a query string is the browser's to render, as before.
    await page.goto('/galleries?sort=name');
    expect(await page.locator('.boot').count()).toBe(1);
    await noScripts.close();
    await context.close();
  });

  it('keeps the rendered page as the browser takes it over: the same elements, no error, links that route', async () => {
    const { context, galleryPath, screens } = await personWithAGallery();
    for (const path of Object.keys(screens)) {
      const page = await context.newPage();
      const seen = problems(page);
      await page.addInitScript(markServerHeading);
      await page.goto(path);
      await page.locator('main [data-from-server]').first().waitFor();
      // Taken over: a click routes in the page (no new document), and the server's heading is the
      // one React kept (a page rendered again would have replaced it, losing the mark).
      const documentsBefore = await page.evaluate(() => performance.getEntriesByType('navigation').length);
      await page.waitForFunction(hydrated);
      expect(await page.locator('main [data-from-server]').count(), path).toBe(1);
      // The app's scripts were asked for only once the screen had painted, with its stylesheet alone
      // (when the main thread painted it: the entry's startTime is when the frame reached the screen).
      const [painted, firstScript] = await page.evaluate(() => [
        (performance.getEntriesByName('first-contentful-paint')[0] as PerformanceEntry & { paintTime?: number })
          ?.paintTime ?? Number.NaN,
        Math.min(
          ...performance
            .getEntriesByType('resource')
            .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
            .map((entry) => entry.startTime),
        ),
      ]);
      expect(firstScript, path).toBeGreaterThan(painted as number);
      const link = path === '/galleries' ? 'Tasks' : 'Galleries';
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
      await page.waitForURL((url) => url.pathname !== path);
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(documentsBefore);
      expect(seen, path).toEqual([]);
      await page.close();
    }
    // The gallery's grid, once measured, takes over from the first rows the server sent.
    const page = await context.newPage();
    await page.goto(galleryPath);
    await page.getByTestId('photo-tile').first().click();
    await page.getByTestId('lightbox').getByText('harbour.jpg').first().waitFor();
    await context.close();
  });

  it('keeps every control where the server put it as the browser takes the page over', async () => {
    const { context, screens } = await personWithAGallery();
    // A browser that has opened the app before has told the server what it knows of itself (main.tsx).
    const first = await context.newPage();
    await first.goto('/projects', { waitUntil: 'networkidle' });
    await first.close();
    for (const path of Object.keys(screens)) {
      const page = await context.newPage();
      await page.addInitScript(markServerHeading);
      const release = await holdScripts(page);
      await page.goto(path, { waitUntil: 'commit' });
      await page.getByRole('heading', { name: screens[path], exact: true }).waitFor();
      // A control that moves once the app runs moves under the finger about to press it (a
      // missed press: the Auto Save switch of Settings once moved down by the push permission note).
      const places = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('main button, main a[href], main input, main textarea, main [role=switch]')]
            .flatMap((element) => {
              // Visually hidden ones (sr-only, one pixel) are not under anyone's finger.
              const { x, y, width } = element.getBoundingClientRect();
              const labelledBy = element.getAttribute('aria-labelledby')?.split(' ')[0];
              const name =
                element.getAttribute('aria-label') ||
                (labelledBy && document.getElementById(labelledBy)?.textContent) ||
                (element as HTMLInputElement).labels?.[0]?.textContent ||
                element.textContent?.trim();
              return width > 1 ? [`${name} @ ${Math.round(x)},${Math.round(y)}`] : [];
            })
            .join('\n'),
        );
      const sent = await places();
      release();
      await page.waitForFunction(hydrated);
      await page.waitForLoadState('networkidle');
      expect(await places(), path).toBe(sent);
      await page.close();
    }
    await context.close();
  });

  it("sends the person's Dark Mode with the page, so it never flashes light", async () => {
    const { context, galleryPath } = await personWithAGallery();
    expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    const noScripts = await withoutScripts(context, MOBILE);
    const page = await noScripts.newPage();
    await page.goto(galleryPath);
    await page.getByRole('heading', { name: 'Rendered Gallery' }).waitFor();
    expect(await page.locator('#root.dark').count()).toBe(1);
    const background = await page.evaluate(
      () => getComputedStyle(document.querySelector('#root > div') as Element).backgroundColor,
    );
    expect(background).not.toBe('oklch(0.984 0.003 247.858)');
    await noScripts.close();
    // In the browser the whole page then has it, #root no longer.
    const scripted = await context.newPage();
    await scripted.goto(galleryPath);
    await scripted.waitForFunction(() =>
      Object.keys(document.querySelector('main h1') ?? {}).some((key) => key.startsWith('__reactFiber$')),
    );
    expect(await scripted.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await scripted.locator('#root.dark').count()).toBe(0);
    await context.close();
  });

  it("shows dates as the browser's time zone has them, the server's render and the browser's alike", async () => {
    const zone = 'America/Los_Angeles';
    const { context } = await signedInContext(browser());
    // A due time that is a different number of calendar days away in Los Angeles than in UTC (the
    // server's own zone here), so a render in the server's zone would say another thing.
    const dayIn = (timeZone: string, date: Date) => Date.parse(date.toLocaleDateString('en-CA', { timeZone }));
    const daysAway = (timeZone: string, due: Date) => (dayIn(timeZone, due) - dayIn(timeZone, new Date())) / 86_400_000;
    const due = Array.from({ length: 46 }, (_, h) => new Date(Date.now() + (h + 2) * 3_600_000)).find(
      (date) => daysAway(zone, date) !== daysAway('UTC', date) && daysAway(zone, date) <= 1,
    ) as Date;
    const expected = daysAway(zone, due) === 0 ? 'Due today' : 'Due tomorrow';
    await context.request.post('/api/tasks', {
      data: { title: 'Scout the pier', priority: 'high', dueDate: due.toISOString() },
    });
    const inZone = await browser().newContext({ baseURL, timezoneId: zone });
    await inZone.addCookies(await context.cookies());
    const page = await inZone.newPage();
    // The first page the browser opens tells the server its zone; the next is rendered in it.
    await page.goto('/projects');
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    const seen = problems(page);
    await page.addInitScript(markServerHeading);
    await page.goto('/tasks');
    expect(await page.locator('#root[data-rendered]').count()).toBe(1);
    await page.waitForFunction(hydrated);
    await page.getByText(expected).waitFor();
    expect(seen).toEqual([]);
    await inZone.close();
    await context.close();
  });

  /** Presses the button on the page the server sent, the app's code held until it has been pressed. */
  async function pressBeforeTakeOver(address: string, button: string) {
    const context = await seenBefore((await signedInContext(browser(), { viewport: MOBILE })).context);
    const page = await context.newPage();
    const release = await holdScripts(page);
    await page.goto(address, { waitUntil: 'commit' });
    await page.getByRole('button', { name: button }).click();
    release();
    return { page, context };
  }

  it('does what a button pressed before the app took the page over was pressed for, once it has', async () => {
    const { page, context } = await pressBeforeTakeOver('/', 'Open AI assistant');
    await page.getByRole('button', { name: 'Search Files' }).waitFor();
    await context.close();
  });

  it("does so for a button of the screen itself, whose part of the page the app takes over after the app's frame", async () => {
    const { page, context } = await pressBeforeTakeOver('/tasks', 'New Task');
    await page.getByRole('dialog', { name: 'Create New Task' }).waitFor();
    await context.close();
  });
});

describe('the render on the server, as built', () => {
  it('has Relay built in, so its checks of the mode are made at build time and not on each field it stores', () => {
    const dir = pageRenderDir(distDir);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    expect(files).toContain('render.js');
    for (const file of files) {
      const code = readFileSync(path.join(dir, file), 'utf8');
      expect(code, file).not.toMatch(/from ["'](relay-runtime|react-relay)[/"']/);
      expect(code, file).not.toContain('process.env.NODE_ENV');
    }
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import dashboardQuery from '../src/screens/dashboard/__generated__/DashboardScreenQuery$parameters.ts';
import galleriesQuery from '../src/screens/galleries/__generated__/GalleriesScreenQuery$parameters.ts';
import tasksQuery from '../src/screens/tasks/__generated__/TasksScreenQuery$parameters.ts';
import bellQuery from '../src/shell/__generated__/NotificationBellSlotQuery$parameters.ts';
import themeQuery from '../src/shell/__generated__/ShellThemeQuery$parameters.ts';
import storageQuery from '../src/shell/__generated__/StorageUsageSlotQuery$parameters.ts';
import type { Preloads } from '../build/preloads.ts';
import { appPath, globalIdOf } from '../src/lib/globalId.ts';
import { distDir } from './server.ts';
import { baseURL, newUser, requestsOf, sharedBrowser, signedInContext } from './support.ts';

// Routes own their data (routes/signedIn.tsx): a screen's query leaves as the navigation starts, beside
// the screen's code, and a link the pointer rests on or the keyboard reaches starts both.

const browser = sharedBrowser();

const asks = (request: Request, query: { params: { id: string | null } }) =>
  request.url().endsWith('/graphql') && (request.postData() ?? '').includes(`"doc_id":"${query.params.id}"`);

/** A new account's dashboard, loaded. */
async function dashboardPage() {
  const { context } = await signedInContext(browser());
  const page = await context.newPage();
  await page.goto('/');
  await page.getByText('No galleries yet').waitFor();
  return { context, page };
}

/** Records the screen queries the page sends, in order. */
function queriesSent(page: Page) {
  const sent: string[] = [];
  page.on('request', (request) => {
    for (const [name, query] of Object.entries({ dashboardQuery, galleriesQuery, tasksQuery })) {
      if (asks(request, query)) sent.push(name);
    }
  });
  return sent;
}

describe('routes load their data', () => {
  it("comes with the session and the screen's and the shell's first answers: the screen shows without asking for them", async () => {
    const { context, user } = await signedInContext(browser(), { user: newUser('Rosa Vidal') });
    const page = await context.newPage();
    const sent = queriesSent(page);
    const shellSent: string[] = [];
    const sessionAsked: string[] = [];
    page.on('request', (request) => {
      for (const query of [themeQuery, storageQuery, bellQuery])
        if (asks(request, query)) shellSent.push(query.params.id ?? '');
      if (new URL(request.url()).pathname === '/api/auth/user') sessionAsked.push(request.url());
    });
    await page.goto('/');
    await page.getByText('No galleries yet').waitFor();
    await page.getByTestId('storage-usage').getByText('0 Bytes of 10 GB used').waitFor();
    await page.getByRole('button', { name: /Notifications/ }).waitFor();
    expect(sent).toEqual([]);
    expect(shellSent).toEqual([]);
    expect(sessionAsked).toEqual([]);
    // The profile the page carried is the one the shell shows.
    await page.getByRole('link', { name: user.name }).waitFor();
    // The page carried the first screen's answers only: the next screen asks.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Galleries' }).click();
    await page.getByRole('heading', { name: 'Photo Galleries' }).waitFor();
    expect(sent[0]).toBe('galleriesQuery');
    expect(sent).not.toContain('dashboardQuery');
    await context.close();
  });

  it('opens every screen at its bare address with what the page carried, asking nothing more over HTTP', async () => {
    const { context } = await signedInContext(browser());
    const made = await context.request.post('/api/galleries', { data: { name: 'Carried Gallery' } });
    const gallery = (await made.json()) as { id: string };
    const screens = {
      '/': 'Dashboard',
      '/galleries': 'Photo Galleries',
      [appPath.gallery(globalIdOf('Gallery', gallery.id))]: 'Carried Gallery',
      '/files': 'File Manager',
      '/tasks': 'Task Management',
      '/projects': 'Projects',
      '/settings': 'Account Settings',
    };
    const asked: Record<string, string[]> = {};
    for (const [path, heading] of Object.entries(screens)) {
      const page = await context.newPage();
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/graphql')) sent.push(request.postData() ?? '');
      });
      await page.goto(path);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      // Long enough for anything the opening sets off (a route read again, a second render's query).
      await page.waitForTimeout(1_000);
      asked[path] = sent;
      await page.close();
    }
    // The galleries screen wrote its (unchanged) search into the address on opening: a navigation,
    // so its route read the list again right after the answer the page carried.
    expect(asked).toEqual(Object.fromEntries(Object.keys(screens).map((path) => [path, []])));
    await context.close();
  });

  // An address with a query string (a link from an e-mail, a shared search) comes without answers:
  // its route asks.
  const withQuery = '/?from=mail';

  it("asks for a screen's data while its code is still on its way", async () => {
    const { context } = await signedInContext(browser());
    const page = await context.newPage();
    const sent = queriesSent(page);
    // The screen's code is held back until its query has left (or 10 s have passed): had the
    // screen asked for its data itself, once its code ran, the query would not leave meanwhile.
    let queryLeftFirst = false;
    await page.route(/\/assets\/DashboardScreen-[^/]+\.js$/, async (route) => {
      const deadline = Date.now() + 10_000;
      while (!sent.includes('dashboardQuery') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      queryLeftFirst = sent.includes('dashboardQuery');
      await route.continue();
    });
    await page.goto(withQuery);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('No galleries yet').waitFor();
    expect(queryLeftFirst).toBe(true);
    expect(sent.filter((name) => name === 'dashboardQuery')).toHaveLength(1);
    await context.close();
  });

  it("asks for the shell's theme, storage and notifications while the shell's code is on its way", async () => {
    const { context } = await signedInContext(browser());
    const page = await context.newPage();
    const shellQueries = [themeQuery, storageQuery, bellQuery];
    const sent = new Set<string>();
    page.on('request', (request) => {
      for (const query of shellQueries) if (asks(request, query)) sent.add(query.params.id ?? '');
    });
    let allLeftFirst = false;
    await page.route(/\/assets\/Shell-[^/]+\.js$/, async (route) => {
      const deadline = Date.now() + 10_000;
      while (sent.size < shellQueries.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      allLeftFirst = sent.size === shellQueries.length;
      await route.continue();
    });
    await page.goto(withQuery);
    await page.getByTestId('storage-usage').getByText('0 Bytes of 10 GB used').waitFor();
    await page.getByRole('button', { name: /Notifications/ }).waitFor();
    expect(allLeftFirst).toBe(true);
    await context.close();
  });

  it('starts a screen when the pointer rests on its link or the keyboard reaches it', async () => {
    const { context, page } = await dashboardPage();
    const sent = queriesSent(page);
    const nav = page.getByRole('navigation', { name: 'Main' });

    const hovered = page.waitForRequest((request) => asks(request, galleriesQuery));
    await nav.getByRole('link', { name: 'Galleries' }).hover();
    await hovered;
    expect(page.url()).toBe(`${baseURL}/`);

    const focused = page.waitForRequest((request) => asks(request, tasksQuery));
    await nav.getByRole('link', { name: 'Tasks' }).focus();
    await focused;

    await nav.getByRole('link', { name: 'Galleries' }).click();
    await page.getByRole('heading', { name: 'Photo Galleries' }).waitFor();
    await page.getByText('No galleries yet').waitFor();
    expect(sent[0]).toBe('galleriesQuery');
    await context.close();
  });

  it('asks again when the reader tries again after a failed load', async () => {
    const { context, page } = await dashboardPage();
    // Down until the screen has said so: the pointer on its way to the link preloads the screen, and
    // that request may fail, be done with, and leave the click's own to succeed.
    let down = true;
    await page.route('**/graphql', async (route) => {
      if (asks(route.request(), tasksQuery) && down) {
        await route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Down for a moment"}' });
        return;
      }
      await route.continue();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('alert').getByText('Something went wrong').waitFor();
    down = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('tab', { name: /Pending \(0\)/ }).waitFor();
    await context.close();
  });

  it('shows a bar along the top while the next screen is on its way', async () => {
    const { context, page } = await dashboardPage();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/GalleriesScreen-[^/]+\.js$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Galleries' }).click();
    const bar = page.getByRole('progressbar', { name: 'Loading the page' });
    await bar.waitFor();
    expect(page.url()).toBe(`${baseURL}/`);
    release();
    await page.getByRole('heading', { name: 'Photo Galleries' }).waitFor();
    await bar.waitFor({ state: 'detached' });
    await context.close();
  });

  it('asks the server for nothing signed in once signed out, even going back', async () => {
    const { context, page } = await dashboardPage();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByText('Authorized Access Only').waitFor();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql')) asked.push(request.postData() ?? '');
    });
    await page.goBack();
    await page.waitForTimeout(1_000);
    await page.getByText('Authorized Access Only').waitFor();
    expect(asked).toEqual([]);
    expect(await page.getByText('Logging in again').count()).toBe(0);
    await context.close();
  });
});

describe('the loading screen', () => {
  it("paints as the page arrives, before the app's stylesheet and scripts", async () => {
    const { context } = await signedInContext(browser());
    const page = await context.newPage();
    // The app's files are held until the loading screen has painted: in the head the stylesheet
    // held that first paint until it came, with the scripts.
    const held: (() => Promise<void>)[] = [];
    let holding = true;
    await page.route('**/assets/**', (route) => (holding ? void held.push(() => route.continue()) : route.continue()));
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    expect(held.length).toBeGreaterThan(1);
    expect(await page.getByText('Loading', { exact: true }).last().isVisible()).toBe(true);
    holding = false;
    await Promise.all(held.map((release) => release()));
    await page.getByText('No galleries yet').waitFor();
    await context.close();
  });

  it('asks for the stylesheet before the scripts', async () => {
    const { context } = await signedInContext(browser());
    const page = await context.newPage();
    // Linked at the end of the page, it was asked for once the carried answers had been made, last
    // of all: over six connections it queued behind the scripts, and the scripts run only after it.
    const asked = requestsOf(page, (request) =>
      request.url().includes('/assets/') ? new URL(request.url()).pathname : undefined,
    );
    await page.goto('/galleries');
    await page.getByText('No galleries yet').waitFor();
    const stylesheet = asked.findIndex((file) => file.endsWith('.css'));
    const firstScript = asked.findIndex((file) => file.endsWith('.js'));
    expect(stylesheet, asked.join('\n')).toBeGreaterThanOrEqual(0);
    expect(stylesheet, asked.join('\n')).toBeLessThan(firstScript);
    await context.close();
  });
});

/**
 * The scripts a page of the build loads before it runs (its entry and what they import statically),
 * and with `later` also those it may load afterwards (its lazy parts).
 */
function scriptsOf(htmlFile: string, { later = false } = {}) {
  const imports = later ? /(?:from|import)\s*\(?["`]\.\/([^"`]+\.js)["`]/g : /(?:from|import)\s*"\.\/([^"]+\.js)"/g;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(path.join(distDir, file), 'utf8');
    for (const [, imported] of code.matchAll(imports)) visit(`/assets/${imported}`);
  };
  const html = readFileSync(path.join(distDir, htmlFile), 'utf8');
  for (const [, entry] of html.matchAll(/<script type="module" crossorigin src="([^"]+)"/g)) visit(entry as string);
  return [...seen];
}

describe('the scripts a signed-in screen needs before its first paint', () => {
  // What the build lists for each screen (preloads.json): the signed-in app, the shell, the screen.
  const { signedIn, signedOut, screens } = JSON.parse(
    readFileSync(path.join(distDir, 'preloads.json'), 'utf8'),
  ) as Preloads;

  // Over mobile data a browser keeps six connections to a server without HTTP/2 and pays a round
  // trip per file: 28 to 44 files before build/chunks.ts grouped them, 18 to 21 since.
  it.each(
    screens.map(
      (screen) => [screen.path, [...new Set([...scriptsOf('index.html'), ...signedIn, ...screen.files])]] as const,
    ),
  )('%s: come in at most 22 files', (_path, files) => {
    expect(files.length).toBeLessThanOrEqual(22);
  });

  it.each([
    ['the landing page', [...new Set([...scriptsOf('index.html'), ...signedOut])]],
    ['a review link (its map included)', scriptsOf('review.html', { later: true })],
  ] as const)('%s loads neither Relay nor the signed-in app', (_page, files) => {
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) {
      const code = readFileSync(path.join(distDir, file), 'utf8');
      expect(code.includes('RelayModernEnvironment'), `${file} holds Relay`).toBe(false);
      expect(code.includes('StorageUsageSlot'), `${file} holds the signed-in shell`).toBe(false);
    }
  });

  it.each(screens.map((screen) => [screen.path, [...new Set([...signedIn, ...screen.files])]] as const))(
    '%s: hold none of Relay’s legacy containers',
    (_path, files) => {
      for (const file of files) {
        // A name minifying keeps: react-relay's index brings its containers, its hooks entry does not.
        const code = readFileSync(path.join(distDir, file), 'utf8');
        expect(code.includes('createFragmentContainer'), `${file} holds react-relay's containers`).toBe(false);
      }
    },
  );
});

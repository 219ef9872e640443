import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { confirmAdminAction, makeAdmin } from './accounts.ts';
import { seriousViolations } from './axe.ts';
import {
  baseURL,
  DESKTOP,
  liveDashboardTab,
  MOBILE,
  newUser,
  screenshot,
  sharedBrowser,
  type TestUser,
} from './support.ts';

// The administrator console. Ana is made an administrator of the shared server with
// `pnpm user:admin` (through its admin socket, as an operator would while it runs). At phone width
// in dark mode she disables a person (whose open tab is signed out at once), sets a quota, reads and
// exports the audit log and turns open sign-up off; a person who is not an administrator gets the
// 404 page at /admin and no Admin link.

const browser = sharedBrowser();

async function signedIn(b: Browser, user: TestUser, viewport: { width: number; height: number }) {
  const context = await b.newContext({ baseURL: baseURL, viewport });
  const signup = await context.request.post('/api/auth/signup', { data: user });
  expect(signup.status()).toBe(202);
  await signInto(context, user);
  return context;
}

async function signInto(context: BrowserContext, user: TestUser) {
  const { csrfToken } = (await (await context.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const signIn = await context.request.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${baseURL}/` },
    maxRedirects: 0,
  });
  expect(signIn.status()).toBe(302);
}

async function atRest(page: Page) {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
}

describe('the admin console', () => {
  const ana = newUser('Ana Admin');
  const ben = newUser('Ben Crew');

  it('an administrator disables, enables, sets a quota, reads the log and changes the instance', async () => {
    const admin = await signedIn(browser(), ana, MOBILE);
    await makeAdmin(ana.email);
    const crew = await signedIn(browser(), ben, DESKTOP);
    expect((await admin.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    const benTab = await liveDashboardTab(crew);

    const page = await admin.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Admin', exact: true }).click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Administration' }).waitFor();
    // The shared server holds every test's people (other Ben Crews among them): Ben is found by his
    // address, typed in capitals.
    await page.getByLabel('Search people').fill(ben.email.toUpperCase());
    await page.getByRole('heading', { name: 'People (1)' }).waitFor();
    await page.getByText(ben.email).waitFor();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await atRest(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'admin-people-dark-mobile');

    // Search.
    await page.getByLabel('Search people').fill(ben.email.toUpperCase());
    await page.getByRole('heading', { name: 'People (1)' }).waitFor();

    // Disable: Ben's open tab is signed out at once.
    await confirmAdminAction(page, ben.email, 'Disable account', 'Disable');
    await page.getByText('Account disabled').waitFor();
    await page.getByText('Disabled', { exact: true }).waitFor();
    await benTab.waitForURL((url) => url.pathname === '/signin', { timeout: 20_000 });
    expect((await crew.request.get('/api/auth/user')).status()).toBe(401);

    await confirmAdminAction(page, ben.email, 'Enable account', 'Enable');
    await page.getByText('Account enabled').waitFor();

    // A quota of 5 MB for Ben.
    await page.getByRole('button', { name: `Actions for ${ben.email}` }).click();
    await page.getByRole('menuitem', { name: 'Set storage quota' }).click();
    await page.getByLabel('Use the instance default').uncheck();
    await page.getByLabel('Quota', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save quota' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter a size of 0 or more.' }).waitFor();
    await page.getByLabel('Quota', { exact: true }).fill('5');
    await page.getByLabel('Unit').selectOption('MB');
    await page.getByRole('button', { name: 'Save quota' }).click();
    await page.getByText('Quota saved').waitFor();
    await page.getByText('0 Bytes of 5 MB (set for this person)').waitFor();

    // The audit log, and its export.
    await page.getByRole('tab', { name: 'Audit log' }).click();
    const disabledEvent = page.getByRole('listitem').filter({ hasText: 'Admin user disabled' }).first();
    await disabledEvent.getByText(`${ana.email} → ${ben.email}`).waitFor();
    await atRest(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'admin-audit-dark-mobile');
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^scoutbase-audit-\d{4}-\d{2}-\d{2}\.csv$/);

    // The instance: open sign-up off, and sign-up is refused.
    await page.getByRole('tab', { name: 'Instance' }).click();
    await page.getByText('Database').waitFor();
    await atRest(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'admin-instance-dark-mobile');
    await page.getByRole('switch', { name: 'Open sign-up' }).click();
    await page.getByText('Open sign-up turned off').waitFor();
    try {
      const refused = await admin.request.post('/api/auth/signup', { data: newUser('Late Comer') });
      expect(refused.status()).toBe(403);
    } finally {
      // The other tests of the run sign people up on this server.
      expect((await admin.request.patch('/api/admin/instance', { data: { allowSignup: null } })).status()).toBe(200);
    }
    await admin.close();
    await crew.close();
  }, 180_000);

  it('shows the 404 page at /admin, and no Admin link, to everyone else', async () => {
    const context = await browser().newContext({ baseURL: baseURL, viewport: DESKTOP });
    await signInto(context, ben);
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await context.close();
  }, 60_000);

  // (phone width in dark mode is the first test's)
  for (const [viewport, dark] of [
    [DESKTOP, false],
    [DESKTOP, true],
    [MOBILE, false],
  ] as const) {
    it(`has no serious violations at ${viewport.width}px${dark ? ' in dark mode' : ''}`, async () => {
      const context = await browser().newContext({ baseURL: baseURL, viewport });
      await signInto(context, ana);
      expect((await context.request.patch('/api/user/settings', { data: { darkMode: dark } })).status()).toBe(200);
      const page = await context.newPage();
      await page.goto('/admin');
      const name = `admin-people-${viewport === DESKTOP ? 'desktop' : 'mobile'}${dark ? '-dark' : ''}`;
      try {
        await page.getByRole('heading', { name: 'Administration' }).waitFor();
        await page.getByLabel('Search people').fill(ben.email);
        await page.getByText(ben.email).waitFor();
        if (dark) await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      } finally {
        await screenshot(page, name);
      }
      for (const [tab, shown] of [
        ['People', page.getByLabel('Search people')],
        ['Audit log', page.getByRole('link', { name: 'Export CSV' })],
        ['Instance', page.getByText('Database')],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await shown.first().waitFor();
        await atRest(page);
        expect(await seriousViolations(page), tab).toEqual([]);
      }
      await context.close();
    }, 60_000);
  }
});

import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import {
  DESKTOP,
  liveDashboardTab,
  MOBILE,
  ownServer,
  screenshot,
  sharedBrowser,
  signedInPage,
  type TestUser,
} from './support.ts';

// Sessions and devices (issue 52): the Security screen lists where the account is signed in, and
// signing a device out there signs its open tab out live. The server checks live sockets' sessions
// only once an hour here, so the tab can only have heard it through the 'sessions:ended' event.
const server = ownServer({ LIVE_SESSION_CHECK_SECONDS: '3600' });
const browser = sharedBrowser();

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

/** Signs an existing account in to `context` (Auth.js credentials flow). */
async function signIn(context: BrowserContext, user: TestUser) {
  const csrf = await context.request.get(`${server().baseURL}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await context.request.post(`${server().baseURL}/api/auth/callback/credentials`, {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${server().baseURL}/` },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  expect((await context.request.get(`${server().baseURL}/api/auth/user`)).status()).toBe(200);
}

describe('signed-in devices', () => {
  it('signs another device out from the Security screen, and its open tab is signed out live', async () => {
    const laptop = await signedInPage(browser(), { server: server().baseURL, path: '/settings' });
    const phoneContext = await browser().newContext({ baseURL: server().baseURL, viewport: MOBILE, userAgent: IPHONE });
    await signIn(phoneContext, laptop.user);
    const phone = await liveDashboardTab(phoneContext);
    await phone.waitForTimeout(1000);

    const page = laptop.page;
    await page.getByRole('link', { name: 'Manage security' }).click();
    await page.waitForURL((url) => url.pathname === '/settings/security');
    await page.getByRole('heading', { name: 'Security', exact: true, level: 1 }).waitFor();
    const rows = page.getByTestId('session-row');
    await rows.filter({ hasText: 'Safari 18 on iOS' }).waitFor();
    expect(await rows.count()).toBe(2);
    await rows.filter({ hasText: 'This device' }).waitFor();
    expect(
      await rows
        .filter({ hasText: 'This device' })
        .getByRole('button', { name: /^Sign out/ })
        .count(),
    ).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'security-desktop');

    await page.getByRole('button', { name: 'Sign out Safari 18 on iOS' }).click();
    await page.getByText('Signed out', { exact: true }).first().waitFor();
    await rows.filter({ hasText: 'Safari 18 on iOS' }).waitFor({ state: 'detached' });
    expect(await rows.count()).toBe(1);
    await page.getByText("You're not signed in anywhere else.").waitFor();

    // The phone's tab goes to the sign-in page by itself, long before any periodic check.
    await phone.waitForURL((url) => url.pathname === '/signin', { timeout: 10_000 });
    expect((await phoneContext.request.get(`${server().baseURL}/api/auth/user`)).status()).toBe(401);
    // The laptop is still signed in.
    expect((await laptop.context.request.get(`${server().baseURL}/api/auth/user`)).status()).toBe(200);

    await phoneContext.close();
    await laptop.context.close();
  });

  it('signs out of all other devices; the Security screen passes axe on a phone in dark mode', async () => {
    const laptop = await signedInPage(browser(), { server: server().baseURL, viewport: MOBILE, path: '/' });
    const { context, page, user } = laptop;
    expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    const others = await Promise.all(
      [IPHONE, undefined].map(async (userAgent) => {
        const other = await browser().newContext({ baseURL: server().baseURL, viewport: DESKTOP, userAgent });
        await signIn(other, user);
        return other;
      }),
    );

    await page.goto('/settings/security');
    const rows = page.getByTestId('session-row');
    await rows.nth(2).waitFor();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'security-mobile-dark');

    await page.getByRole('button', { name: 'Sign out of all other devices' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out of all other devices?' });
    await dialog.getByText('2 other devices will be signed out at once.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Signed out of all other devices').first().waitFor();
    await page.getByText("You're not signed in anywhere else.").waitFor();
    for (const other of others) {
      expect((await other.request.get(`${server().baseURL}/api/auth/user`)).status()).toBe(401);
      await other.close();
    }
    expect((await context.request.get(`${server().baseURL}/api/auth/user`)).status()).toBe(200);
    await context.close();
  });
});

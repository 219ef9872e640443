import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import type { Browser } from 'playwright-core';
import { baseURL, DESKTOP, MOBILE, newUser, screenshot, sharedBrowser } from './support.ts';

// Settings › Your data: the export downloads, and deleting the account lists what goes, refuses a
// wrong password with a message, then signs the person out to the landing page.

const browser = sharedBrowser();

/** A new person, signed up and in through the API (sign-up answers the same 202 for any address). */
async function signedInPage(
  b: Browser,
  { path, viewport }: { path: string; viewport: { width: number; height: number } },
) {
  const user = newUser();
  const context = await b.newContext({ baseURL, viewport });
  const signup = await context.request.post('/api/auth/signup', { data: user });
  expect(signup.status()).toBe(202);
  const { csrfToken } = (await (await context.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const signIn = await context.request.post('/api/auth/callback/credentials', {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${baseURL}/` },
    maxRedirects: 0,
  });
  expect(signIn.status()).toBe(302);
  const page = await context.newPage();
  await page.goto(path);
  return { context, page, user };
}

describe('your data', () => {
  it('downloads the export, then deletes the account after listing what goes', async () => {
    const { context, page, user } = await signedInPage(browser(), { path: '/settings', viewport: MOBILE });
    expect((await context.request.post('/api/projects', { data: { name: 'Solo project' } })).status()).toBe(201);
    expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    // The theme is read as the page loads.
    await page.reload();

    await page.getByRole('link', { name: 'Your data' }).click();
    await page.getByRole('heading', { name: 'Your data', exact: true }).waitFor();
    await page.waitForURL('**/settings/account');
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download your data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^scoutbase-data-\d{4}-\d{2}-\d{2}\.zip$/);

    const goes = page.getByTestId('deletion-goes');
    await goes.getByText('The project “Solo project”').waitFor();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [data-testid="skeleton"]'));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-dark-mobile');

    const remove = page.getByRole('button', { name: 'Delete my account' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel('Your password').fill('not my password');
    await page.getByLabel('Type DELETE to confirm').fill('DELETE');
    await remove.click();
    await page.getByRole('alert').filter({ hasText: 'Your password is not right.' }).waitFor();
    expect(await page.getByLabel('Your password').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Your password').fill(user.password);
    await remove.click();
    await page.getByText('Your account and your data have been deleted.').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await context.request.get('/api/auth/user')).status()).toBe(401);
    await context.close();
  }, 120_000);

  it('has no serious violations at desktop width in light mode', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/settings/account', viewport: DESKTOP });
    await page.getByRole('heading', { name: 'Delete account' }).waitFor();
    await page.getByRole('button', { name: 'Delete my account' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-desktop');
    await context.close();
  });
});

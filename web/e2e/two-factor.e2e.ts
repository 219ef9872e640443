import { describe, expect, it } from 'vitest';
import { nextCode, signInUntilCode, submitSignIn, turnOnTwoFactor } from './accounts.ts';
import { seriousViolations } from './axe.ts';
import { DESKTOP, MOBILE, newUser, screenshot, sharedBrowser, visitorPage } from './support.ts';

// Two-factor sign-in (issue 52): turned on in Settings › Security with a code the test computes
// from the key the page shows, then asked for by the sign-in page.

const browser = sharedBrowser();

/** A new account, signed in through the sign-in page, on Settings › Security. */
async function onSecurityScreen(viewport = DESKTOP) {
  const { context, page } = await visitorPage(browser(), { viewport });
  const user = newUser();
  const signup = await context.request.post('/api/auth/signup', { data: user });
  expect(signup.ok(), await signup.text()).toBe(true);
  await page.goto('/signin?callbackUrl=%2Fsettings%2Fsecurity');
  await submitSignIn(page, user);
  await page.waitForURL((url) => url.pathname === '/settings/security');
  return { context, page, user };
}

describe('two-factor sign-in', () => {
  it('is turned on in Settings, then asked for at sign-in; a recovery code works once', async () => {
    const { context, page, user } = await onSecurityScreen();
    const { totp, recoveryCodes } = await turnOnTwoFactor(page);
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    await screenshot(page, 'two-factor-recovery-codes');
    await page.getByRole('button', { name: 'I have saved my codes' }).click();
    await page.getByText('On', { exact: true }).waitFor();
    await context.close();

    // Signed out: the password alone is not enough.
    const visitor = await visitorPage(browser());
    await signInUntilCode(visitor.page, user);
    const code = visitor.page.getByLabel('Authentication code');
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await code.getAttribute('inputmode')).toBe('numeric');
    expect((await visitor.context.request.get('/api/auth/user')).status()).toBe(401);
    await code.fill('000000');
    await visitor.page.getByRole('button', { name: 'Verify' }).click();
    await visitor.page.getByText('That code is not right.', { exact: false }).waitFor();
    await code.fill(nextCode(totp));
    await visitor.page.getByRole('button', { name: 'Verify' }).click();
    await visitor.page.waitForURL((url) => url.pathname === '/');
    expect((await visitor.context.request.get('/api/auth/user')).status()).toBe(200);
    await visitor.context.close();

    // A lost phone: a recovery code instead, once.
    const other = await visitorPage(browser(), { viewport: MOBILE });
    await signInUntilCode(other.page, user);
    await other.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    expect(await seriousViolations(other.page)).toEqual([]);
    await screenshot(other.page, 'two-factor-recovery-code-390');
    await other.page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await other.page.getByRole('button', { name: 'Verify' }).click();
    await other.page.waitForURL((url) => url.pathname === '/');
    await other.context.clearCookies();
    await signInUntilCode(other.page, user);
    await other.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await other.page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await other.page.getByRole('button', { name: 'Verify' }).click();
    await other.page.getByText('That code is not right.', { exact: false }).waitFor();
    await other.context.close();
  }, 180_000);

  it('turns off with the password and a code (on a phone, in dark mode)', async () => {
    const { context, page, user } = await onSecurityScreen(MOBILE);
    expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    await page.reload();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    const { recoveryCodes } = await turnOnTwoFactor(page);
    await page.getByRole('button', { name: 'I have saved my codes' }).click();
    await page.getByRole('button', { name: 'Turn off' }).click();
    const form = page.getByRole('form', { name: 'Turn off two-factor sign-in' });
    await form.getByLabel('Password', { exact: true }).fill('not my password');
    await form.getByLabel('Code from your app or a recovery code').fill(recoveryCodes[1] ?? '');
    await form.getByRole('button', { name: 'Turn off' }).click();
    await form.getByText('Your password is not right.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'two-factor-turn-off-390-dark');
    await form.getByLabel('Password', { exact: true }).fill(user.password);
    await form.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('Off', { exact: true }).waitFor();
    expect(await (await context.request.get('/api/auth/user')).json()).toMatchObject({ twoFactorEnabled: false });
    await context.close();
  }, 120_000);
});

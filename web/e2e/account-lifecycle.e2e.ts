import { describe, expect, it } from 'vitest';
import {
  confirmAdminAction,
  inApp,
  makeAdmin,
  nextCode,
  signInUntilCode,
  signUpInBrowser,
  submitSignIn,
  turnOnTwoFactor,
} from './accounts.ts';
import { mailedLink, MOBILE, newUser, sharedBrowser, signUpAndSignIn, visitorPage } from './support.ts';

// One person's account from sign-up to being disabled, through the screens alone (issue 52's
// quality bar): the e-mailed links are read from the server's outbox as from a mailbox, the
// authenticator's codes are computed from the key the Security screen shows.

const browser = sharedBrowser();

describe('an account’s whole life', () => {
  it('sign up → verify → two-factor → sign in with the code → forgot password → disabled by an administrator, live', async () => {
    const user = newUser('Lena Lifecycle');
    const first = await signUpInBrowser(browser(), user);
    await first.page.getByRole('region', { name: 'Verify your e-mail address' }).waitFor();

    // The link from the mailbox verifies the address.
    await first.page.goto(inApp(await mailedLink(user.email, '/verify-email')));
    await first.page.getByText('is verified').waitFor();
    expect(await (await first.context.request.get('/api/auth/user')).json()).toMatchObject({ emailVerified: true });

    // Two-factor on, then signed out.
    await first.page.goto('/settings/security');
    const { totp, recoveryCodes } = await turnOnTwoFactor(first.page);
    await first.page.getByRole('button', { name: 'I have saved my codes' }).click();
    await first.page.getByRole('button', { name: 'Sign Out' }).click();
    await first.page.waitForURL((url) => url.pathname === '/');
    expect((await first.context.request.get('/api/auth/user')).status()).toBe(401);

    // The password alone is not enough; the code is.
    await signInUntilCode(first.page, user);
    expect((await first.context.request.get('/api/auth/user')).status()).toBe(401);
    await first.page.getByLabel('Authentication code').fill(nextCode(totp));
    await first.page.getByRole('button', { name: 'Verify' }).click();
    await first.page.waitForURL((url) => url.pathname === '/');
    expect((await first.context.request.get('/api/auth/user')).status()).toBe(200);

    // On a phone, the password is forgotten and reset from the e-mailed link.
    const second = await visitorPage(browser(), { viewport: MOBILE });
    await second.page.goto('/signin');
    await second.page.getByRole('link', { name: 'Forgot password?' }).click();
    await second.page.getByLabel('Email').fill(user.email);
    await second.page.getByRole('button', { name: 'Send Reset Link' }).click();
    await second.page.getByText('If an account exists for that address, we sent a link.').waitFor();
    await second.page.goto(inApp(await mailedLink(user.email, '/reset-password')));
    const newPassword = 'a brand new long password';
    await second.page.getByLabel('New password', { exact: true }).fill(newPassword);
    await second.page.getByLabel('New password again').fill(newPassword);
    await second.page.getByRole('button', { name: 'Set New Password' }).click();
    await second.page.getByText('Your new password is set.').waitFor();

    // The old session ended with the reset; the old password no longer signs in.
    expect((await first.context.request.get('/api/auth/user')).status()).toBe(401);
    await second.page.goto('/signin');
    await submitSignIn(second.page, user);
    await second.page.getByRole('alert').getByText('Wrong email or password.').waitFor();
    // The new one does, with a recovery code for the second step (this 30-second step's code is used).
    await signInUntilCode(second.page, { email: user.email, password: newPassword });
    await second.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await second.page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.waitForURL((url) => url.pathname === '/');
    // Its live connection is open once the bell has its count.
    await second.page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .waitFor();

    // An administrator disables the account: the open tab is signed out at once.
    const admin = await visitorPage(browser());
    const administrator = await signUpAndSignIn(admin.context, newUser('Ada Administrator'));
    await makeAdmin(administrator.email);
    await admin.page.goto('/admin');
    await admin.page.getByRole('heading', { name: 'Administration' }).waitFor();
    await admin.page.getByLabel('Search people').fill(user.email);
    await confirmAdminAction(admin.page, user.email, 'Disable account', 'Disable');
    await admin.page.getByText('Account disabled').waitFor();
    await second.page.waitForURL((url) => url.pathname === '/signin', { timeout: 20_000 });
    expect((await second.context.request.get('/api/auth/user')).status()).toBe(401);

    // Signing in again, with both factors, says why it cannot.
    await signInUntilCode(second.page, { email: user.email, password: newPassword });
    await second.page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await second.page.getByLabel('Recovery code').fill(recoveryCodes[1] ?? '');
    await second.page.getByRole('button', { name: 'Verify' }).click();
    await second.page.getByText('This account is disabled. Ask an administrator.').waitFor();
    expect((await second.context.request.get('/api/auth/user')).status()).toBe(401);

    for (const { context } of [first, second, admin]) await context.close();
  }, 240_000);
});

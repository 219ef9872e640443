import { describe, expect, it } from 'vitest';
import { inApp, signUpInBrowser, submitSignIn, visitorPagesAccessible } from './accounts.ts';
import {
  DESKTOP,
  MOBILE,
  mailedLink,
  newUser,
  screenshot,
  sharedBrowser,
  signUpAndSignIn,
  visitorPage,
} from './support.ts';

// Verified addresses and a forgotten password, as a person goes through them (issue 52): the links
// are read from the server's outbox (DATA_DIR/outbox), as from a mailbox.

const browser = sharedBrowser();

describe('an account’s address and password', () => {
  it('sign up → verify from the e-mail → forgot password → the new password works, the old one and its session do not', async () => {
    const user = newUser('Vera Verified');
    // Signed in but unverified: the app says so and offers a new link.
    const { context, page } = await signUpInBrowser(browser(), user);
    const notice = page.getByRole('region', { name: 'Verify your e-mail address' });
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Resend verification e-mail' }).click();
    await page.getByText('Verification e-mail sent').first().waitFor();

    // The link from the mailbox verifies the address; the notice is gone.
    await page.goto(inApp(await mailedLink(user.email, '/verify-email')));
    await page.getByText('is verified').waitFor();
    await page.getByRole('link', { name: 'Continue to Scoutbase' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    expect(await page.getByRole('region', { name: 'Verify your e-mail address' }).count()).toBe(0);

    // Another browser forgets the password.
    const { context: other, page: visitor } = await visitorPage(browser(), { viewport: MOBILE });
    await visitor.goto('/signin');
    await visitor.getByRole('link', { name: 'Forgot password?' }).click();
    await visitor.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await visitor.getByLabel('Email').fill(user.email);
    await visitor.getByRole('button', { name: 'Send Reset Link' }).click();
    await visitor.getByText('If an account exists for that address, we sent a link.').waitFor();
    await screenshot(visitor, 'reset-requested-phone');

    await visitor.goto(inApp(await mailedLink(user.email, '/reset-password')));
    await visitor.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await visitor.getByLabel('New password', { exact: true }).fill('a newer long password');
    await visitor.getByLabel('New password again').fill('not the same at all');
    await visitor.getByRole('button', { name: 'Set New Password' }).click();
    await visitor.getByRole('alert').getByText('The two passwords are not the same.').waitFor();
    await visitor.getByLabel('New password again').fill('a newer long password');
    await visitor.getByRole('button', { name: 'Set New Password' }).click();
    await visitor.getByText('Your new password is set.').waitFor();

    // The first browser's session ended with the reset.
    expect((await context.request.get('/api/auth/user')).status()).toBe(401);

    // The old password no longer signs in; the new one does.
    await visitor.getByRole('link', { name: 'Sign In', exact: true }).click();
    await visitor.getByRole('heading', { name: 'Sign in to Scoutbase' }).waitFor();
    await submitSignIn(visitor, user);
    await visitor.getByRole('alert').getByText('Wrong email or password.').waitFor();
    await visitor.getByLabel('Password').fill('a newer long password');
    await visitor.getByRole('button', { name: 'Sign In', exact: true }).click();
    await visitor.getByRole('button', { name: 'Sign Out' }).first().waitFor();

    // A used link says so, in the same words as any bad link.
    await visitor.goto(inApp(await mailedLink(user.email, '/reset-password')));
    await visitor.getByLabel('New password', { exact: true }).fill('a third long password');
    await visitor.getByLabel('New password again').fill('a third long password');
    await visitor.getByRole('button', { name: 'Set New Password' }).click();
    await visitor.getByRole('alert').getByText('This link is invalid or has expired.').waitFor();
    await other.close();
    await context.close();
  }, 180_000);

  it('changes the password in Settings › Security, signing out the other devices', async () => {
    const { context: first, page } = await visitorPage(browser());
    const user = await signUpAndSignIn(first);
    const { context: second } = await visitorPage(browser());
    // A second device: its sign-up finds the address taken (same answer), and it signs in.
    await signUpAndSignIn(second, user, undefined, { verified: false });
    expect((await second.request.get('/api/auth/user')).status()).toBe(200);

    await page.goto('/settings/security');
    await page.getByRole('heading', { name: 'Password', exact: true }).waitFor();
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password', { exact: true }).fill('a changed long password');
    await page.getByLabel('New password again').fill('a changed long password');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByRole('alert').getByText('Your current password is not right.').waitFor();
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('You are signed out on your other devices.').first().waitFor();
    expect((await first.request.get('/api/auth/user')).status()).toBe(200);
    expect((await second.request.get('/api/auth/user')).status()).toBe(401);
    await second.close();
    await first.close();
  }, 120_000);

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`the recovery pages have no serious accessibility violations at ${viewport.width}px, light and dark`, async () => {
      await visitorPagesAccessible(
        browser(),
        viewport,
        [
          ['/reset-password', 'Forgot your password?'],
          ['/reset-password?token=AAAA', 'Choose a new password'],
          ['/verify-email?token=AAAA', 'Verify your e-mail address'],
        ],
        (path) => `${path.slice(1).split('?')[0]}${path.includes('token') ? '-link' : ''}`,
        async (page, path) => {
          if (path.startsWith('/verify-email')) await page.getByRole('alert').waitFor();
        },
      );
    }, 120_000);
  }
});

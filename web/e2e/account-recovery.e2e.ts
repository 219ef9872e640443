import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import {
  DESKTOP,
  MOBILE,
  mailedLink,
  newUser,
  screenshot,
  sharedBrowser,
  signUpAndSignIn,
  submitSignUp,
  visitorPage,
} from './support.ts';

// Verified addresses and a forgotten password, as a person goes through them (issue 52): the links
// are read from the server's outbox (DATA_DIR/outbox), as from a mailbox.

const browser = sharedBrowser();

/** The path and query of an e-mailed link: the server's PUBLIC_URL is not the test's address. */
const inApp = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

describe('an account’s address and password', () => {
  it('sign up → verify from the e-mail → forgot password → the new password works, the old one and its session do not', async () => {
    const user = newUser('Vera Verified');
    const { context, page } = await visitorPage(browser());
    await page.goto('/signup');
    await submitSignUp(page, user);
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    // Signed in but unverified: the app says so and offers a new link.
    await page.getByRole('link', { name: 'Continue to sign in' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
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
    await visitor.getByLabel('Email').fill(user.email);
    await visitor.getByLabel('Password').fill(user.password);
    await visitor.getByRole('button', { name: 'Sign In', exact: true }).click();
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
      const { context, page } = await visitorPage(browser(), { viewport });
      const name = viewport === DESKTOP ? 'desktop' : 'phone';
      for (const dark of [false, true]) {
        await context.addInitScript((on) => localStorage.setItem('scoutbase:dark-mode', on ? '1' : '0'), dark);
        for (const [path, heading] of [
          ['/reset-password', 'Forgot your password?'],
          ['/reset-password?token=AAAA', 'Choose a new password'],
          ['/verify-email?token=AAAA', 'Verify your e-mail address'],
        ] as const) {
          await page.goto(path);
          await page.getByRole('heading', { name: heading }).waitFor();
          if (path.startsWith('/verify-email')) await page.getByRole('alert').waitFor();
          expect(await seriousViolations(page), `${path} dark=${dark}`).toEqual([]);
          const shot = `${path.slice(1).split('?')[0]}${path.includes('token') ? '-link' : ''}`;
          await screenshot(page, `${shot}-${name}${dark ? '-dark' : ''}`);
        }
      }
      await context.close();
    }, 120_000);
  }
});

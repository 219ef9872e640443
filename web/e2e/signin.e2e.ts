import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { signInAfterSignUp, submitSignIn, visitorPagesAccessible } from './accounts.ts';
import {
  baseURL,
  DESKTOP,
  MOBILE,
  newUser,
  screenshot,
  sharedBrowser,
  submitSignUp,
  type TestUser,
  visitorPage,
} from './support.ts';

// The app's own sign-in and sign-up pages in front of Auth.js (issue #16).

const browser = sharedBrowser();

function cspViolations(page: Page) {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

async function accountOf(context: BrowserContext, user = newUser()): Promise<TestUser> {
  const signup = await context.request.post('/api/auth/signup', { data: user });
  expect(signup.status()).toBe(202);
  return user;
}

describe('the sign-in page', () => {
  it('is where /api/login and the landing page send people, and signs in back to the page they asked for', async () => {
    const { context, page } = await visitorPage(browser());
    const user = await accountOf(context, newUser('Inés Navarro'));
    await page.goto('/api/login?callbackUrl=%2Ftasks%3Ftab%3Doverdue');
    await page.waitForURL(/\/signin\?/);
    await page.getByRole('heading', { name: 'Sign in to Scoutbase' }).waitFor();
    // No Google button unless Google is configured.
    expect(await page.getByRole('button', { name: 'Sign in with Google' }).count()).toBe(0);
    await submitSignIn(page, user);
    await page.getByRole('heading', { name: 'Task Management' }).waitFor();
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe('/tasks?tab=overdue');

    await context.clearCookies();
    await page.goto('/');
    // Without Google configured the landing page promises no provider: it leads to the sign-in page.
    expect(await page.getByRole('button', { name: /Google/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Sign In', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Sign in to Scoutbase' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signin');
    await context.close();
  }, 120_000);

  it('never sends anyone to another site after signing in', async () => {
    const { context, page } = await visitorPage(browser());
    const user = await accountOf(context);
    for (const elsewhere of ['https://evil.example/', '//evil.example/', '/\\evil.example/']) {
      await context.clearCookies();
      await page.goto(`/signin?callbackUrl=${encodeURIComponent(elsewhere)}`);
      await submitSignIn(page, user);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(new URL(page.url()).origin).toBe(baseURL);
      expect(new URL(page.url()).pathname).toBe('/');
    }
    await context.close();
  }, 120_000);

  it('signs up from the landing page, saying why when it cannot, and lands where asked', async () => {
    const taken = newUser('Already Here');
    const { context, page } = await visitorPage(browser());
    await accountOf(context, taken);
    await page.goto('/');
    await page.getByRole('button', { name: 'Get Started' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    const user = newUser('Lucía Ferrer');
    await submitSignUp(page, { ...user, password: 'short' });
    await page.getByRole('alert').getByText('Password must be at least 8 characters.').waitFor();
    await page.getByLabel('Email').fill(taken.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    // A taken address gets the answer a new one gets: nobody learns who has an account.
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await screenshot(page, 'signup-check-email-desktop');

    await page.goto('/signup?callbackUrl=%2Fgalleries');
    await submitSignUp(page, user);
    await signInAfterSignUp(page, user);
    await page.getByRole('heading', { name: 'Photo Galleries' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/galleries');
    expect(await page.getByRole('banner').getByText('Lucía Ferrer').isVisible()).toBe(true);
    // Signed in, the sign-in page has nothing to do: it goes on to the app.
    await page.goto('/signin?callbackUrl=%2Ftasks');
    await page.getByRole('heading', { name: 'Task Management' }).waitFor();
    await context.close();
  }, 120_000);

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`has no serious accessibility violations at ${viewport.width}px, light and dark`, async () => {
      await visitorPagesAccessible(
        browser(),
        viewport,
        [
          ['/signin?error=CredentialsSignin&code=credentials', 'Sign in to Scoutbase'],
          ['/signup', 'Create your account'],
        ],
        (path) => path.slice(1, 7),
      );
    }, 120_000);
  }
});

describe('in production, with Google configured and sign-up turned off', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      // The production content security policy must not block anything these pages do.
      NODE_ENV: 'production',
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      ALLOW_SIGNUP: 'false',
      AUTH_GOOGLE_ID: 'scoutbase-test-client',
      AUTH_GOOGLE_SECRET: 'scoutbase-test-secret',
      // Never reached: the page only lists the provider.
      AUTH_GOOGLE_ISSUER: 'http://127.0.0.1:9/',
    });
  }, 180_000);
  afterAll(() => server?.stop());

  it('offers Google beside the password, and says sign-up is closed', async () => {
    const { context, page } = await visitorPage(browser(), { server: server.baseURL });
    const violations = cspViolations(page);
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await screenshot(page, 'signin-with-google-desktop');
    await page.goto('/signin?error=AccessDenied');
    await page.getByRole('alert').getByText('Failed to sign in with Google').waitFor();
    // The landing page names the one provider there is.
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign In with Google' }).first().waitFor();
    await page.goto('/signup');
    const user = newUser();
    await submitSignUp(page, user);
    await page.getByRole('alert').getByText('Sign-up is turned off. Ask an administrator for an account.').waitFor();
    expect(violations).toEqual([]);
    await context.close();
  }, 120_000);

  it('says in words what went wrong: a wrong password, then a lock with its length', async () => {
    // Failures lock the address they come from too, so this runs on its own server, with an
    // address that has no account (it is refused in the same words: no account enumeration).
    const { context, page } = await visitorPage(browser(), { server: server.baseURL });
    const violations = cspViolations(page);
    const user = newUser();
    await page.goto('/signin');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const formError = page.locator('form p[role="alert"]');
    await expect.poll(() => formError.textContent(), { timeout: 60_000 }).toBe('Wrong email or password.');
    // The e-mail stays filled in for the next try.
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    await screenshot(page, 'signin-wrong-password-desktop');
    for (let i = 0; i < 4; i++) {
      await page.getByLabel('Password').fill(`wrong again ${i}`);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByRole('alert').getByText('Wrong email or password.').waitFor();
    }
    await page.getByLabel('Password').fill('one more guess');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page
      .getByRole('alert')
      .getByText(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/)
      .waitFor();
    // An error Auth.js sends to the page by itself is in words too.
    await page.goto('/signin?error=Configuration');
    await page.getByRole('alert').getByText('Sign-in is not available right now.', { exact: false }).waitFor();
    expect(violations).toEqual([]);
    await context.close();
  }, 120_000);
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Secret, TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { seriousViolations } from './axe.ts';
import { DESKTOP, screenshot, submitSignUp, type TestUser, visitorPage } from './support.ts';

// What several browser tests of accounts do the same way (issue 52): two-factor set up on the
// Security screen, the sign-in that asks for its code, and an administrator made and at work.

/** Fills the sign-in page's form in as `user` and sends it. */
export async function submitSignIn(page: Page, { email, password }: Pick<TestUser, 'email' | 'password'>) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Once the sign-up form is sent: from "Check your e-mail" on to the sign-in page, and signs in as `user`. */
export async function signInAfterSignUp(page: Page, user: TestUser) {
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
  await page.getByRole('link', { name: 'Continue to sign in' }).click();
  await page.getByRole('heading', { name: 'Sign in to Scoutbase' }).waitFor();
  await submitSignIn(page, user);
}

/** A visitor of their own signs up as `user` on the sign-up page and goes on to sign in (not yet verified). */
export async function signUpInBrowser(browser: Browser, user: TestUser) {
  const visitor = await visitorPage(browser);
  await visitor.page.goto('/signup');
  await submitSignUp(visitor.page, user);
  await signInAfterSignUp(visitor.page, user);
  return visitor;
}

/** The path and query of an e-mailed link: the server's PUBLIC_URL is not the test's address. */
export function inApp(link: string) {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * Signed-out pages (path, heading) in a visitor's window of `viewport`, light then dark: each checked
 * for serious accessibility violations once its heading (and `ready`) shows, and photographed as
 * `<shot(path)>-<desktop|phone>[-dark]`.
 */
export async function visitorPagesAccessible(
  browser: Browser,
  viewport: { width: number; height: number },
  pages: readonly (readonly [path: string, heading: string])[],
  shot: (path: string) => string,
  ready?: (page: Page, path: string) => Promise<void>,
) {
  const { context, page } = await visitorPage(browser, { viewport });
  const name = viewport === DESKTOP ? 'desktop' : 'phone';
  for (const dark of [false, true]) {
    await context.addInitScript((on) => localStorage.setItem('scoutbase:dark-mode', on ? '1' : '0'), dark);
    for (const [path, heading] of pages) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      await ready?.(page, path);
      expect(await seriousViolations(page), `${path} dark=${dark}`).toEqual([]);
      await screenshot(page, `${shot(path)}-${name}${dark ? '-dark' : ''}`);
    }
  }
  await context.close();
}

/** The app's TOTP for the key shown on the Security screen. */
export function authenticator(key: string) {
  return new TOTP({ secret: Secret.fromBase32(key.replace(/\s/g, '')), digits: 6, period: 30 });
}

/** A code from a later 30-second step: the one that turned two-factor on is used up. */
export function nextCode(totp: TOTP, steps = 1) {
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** Turns two-factor on from the Security screen (a wrong code first); the key and the recovery codes. */
export async function turnOnTwoFactor(page: Page) {
  await page.getByRole('heading', { name: /Two-factor sign-in/ }).waitFor();
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  const key = (await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent()) ?? '';
  const totp = authenticator(key);
  const codeField = page.getByLabel('Code from your app');
  await codeField.fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('That code is not right', { exact: false }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await codeField.fill(totp.generate());
  await page.getByRole('button', { name: 'Turn on' }).click();
  await page.getByText('Save your recovery codes now').waitFor();
  const recoveryCodes = await page
    .getByRole('list', { name: 'Recovery codes' })
    .getByRole('listitem')
    .allTextContents();
  expect(await seriousViolations(page)).toEqual([]);
  return { totp, recoveryCodes };
}

/** The sign-in page up to its second step, which asks for the code. */
export async function signInUntilCode(page: Page, user: Pick<TestUser, 'email' | 'password'>) {
  await page.goto('/signin');
  await submitSignIn(page, user);
  await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
}

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../api');

/** Makes someone an administrator of the shared server with `pnpm user:admin`, through its admin socket. */
export async function makeAdmin(email: string) {
  // The server's IMPORT_DIR is DATA_DIR/import (server.ts).
  const dataDir = path.dirname(inject('importDir'));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--experimental-wasm-modules',
      '--no-warnings=ExperimentalWarning',
      '--import',
      'tsx',
      'scripts/user-admin.ts',
      '--email',
      email,
    ],
    { cwd: apiDir, env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' } },
  );
  expect(stdout.trim()).toMatch(/is (now|already) an administrator\.$/);
}

/** An action from a person's menu in the admin console, confirmed in its dialog. */
export async function confirmAdminAction(page: Page, person: string, action: string, confirm: string) {
  await page.getByRole('button', { name: `Actions for ${person}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
  await page.getByRole('dialog').getByRole('button', { name: confirm, exact: true }).click();
}

/** The owner's project with the crew member in it: invited by e-mail, accepted by the crew member. */
export async function joinProject(owner: BrowserContext, crew: BrowserContext, crewEmail: string) {
  const project = await owner.request.post('/api/projects', { data: { name: 'Harbour Night Shoot' } });
  expect(project.status()).toBe(201);
  const { id } = (await project.json()) as { id: string };
  const invited = await owner.request.post(`/api/projects/${id}/invitations`, {
    data: { email: crewEmail, role: 'member' },
  });
  expect(invited.status()).toBe(201);
  const mine = (await (await crew.request.get('/api/invitations')).json()) as { id: string }[];
  expect(mine).toHaveLength(1);
  const accepted = await crew.request.post(`/api/invitations/${mine[0]?.id}/accept`);
  expect(accepted.ok()).toBe(true);
}

import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';

export { launchBrowser } from './chromium.ts';

// Helpers for browser tests: Debian's Chromium driven by playwright-core against the real server
// started by globalSetup.ts.

export const baseURL = inject('baseURL');
const sharedBaseURL = baseURL;
const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

export function newUser(name = 'Ana Lopez'): TestUser {
  return { name, email: `crew-${randomUUID().slice(0, 8)}@example.com`, password: 'a long enough password' };
}

/** Signs up a fresh account through the API, then signs the context in (Auth.js credentials flow). */
export async function signUpAndSignIn(
  context: BrowserContext,
  user: TestUser = newUser(),
  baseURL = sharedBaseURL,
): Promise<TestUser> {
  const signup = await context.request.post(`${baseURL}/api/auth/signup`, { data: user });
  if (signup.status() !== 201) throw new Error(`sign-up failed: ${signup.status()} ${await signup.text()}`);
  const csrf = await context.request.get(`${baseURL}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await context.request.post(`${baseURL}/api/auth/callback/credentials`, {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${baseURL}/` },
    maxRedirects: 0,
  });
  if (signIn.status() !== 302) throw new Error(`sign-in failed: ${signIn.status()}`);
  const me = await context.request.get(`${baseURL}/api/auth/user`);
  if (!me.ok()) throw new Error(`no session after sign-in: ${me.status()}`);
  return user;
}

/** A fresh signed-in user (`user`, else a new one) in its own context, with a page open on `path` (of another server when `server` is given). */
export async function signedInPage(
  browser: Browser,
  {
    path: at = '/',
    viewport = DESKTOP,
    server = baseURL,
    user: wanted = newUser(),
  }: { path?: string; viewport?: { width: number; height: number }; server?: string; user?: TestUser } = {},
): Promise<{ context: BrowserContext; page: Page; user: TestUser }> {
  const context = await browser.newContext({ baseURL: server, viewport });
  const user = await signUpAndSignIn(context, wanted, server);
  const page = await context.newPage();
  await page.goto(at);
  return { context, page, user };
}

/** Saves a screenshot under web/test-results/screenshots for reviewers. */
export async function screenshot(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

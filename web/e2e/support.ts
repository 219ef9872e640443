import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser } from './chromium.ts';

// Helpers for browser tests: Debian's Chromium driven by playwright-core against the real server
// started by globalSetup.ts.

export const baseURL = inject('baseURL');
const sharedBaseURL = baseURL;
const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/**
 * Chromium for the test file that calls this: launched before its tests, closed after them. Vitest
 * runs a file's beforeAll hooks in order and its afterAll hooks in reverse, so a file whose own
 * servers should start first and stop last sets them up before calling this.
 */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('Chromium starts before the first test: ask for it inside a test');
    return browser;
  };
}

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

/** Where a test's context points (another server than the shared one when `server` is given) and its window size. */
interface ContextOptions {
  server?: string;
  viewport?: { width: number; height: number };
}

/** A signed-out visitor: a context of its own with a blank page. */
export async function visitorPage(
  browser: Browser,
  { viewport = DESKTOP, server = baseURL }: ContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server, viewport });
  return { context, page: await context.newPage() };
}

/** A fresh signed-in user (`user`, else a new one) in a context of its own. */
export async function signedInContext(
  browser: Browser,
  { viewport = DESKTOP, server = baseURL, user = newUser() }: ContextOptions & { user?: TestUser } = {},
): Promise<{ context: BrowserContext; user: TestUser }> {
  const context = await browser.newContext({ baseURL: server, viewport });
  return { context, user: await signUpAndSignIn(context, user, server) };
}

/** signedInContext() with a page open on `path`. */
export async function signedInPage(
  browser: Browser,
  { path: at = '/', ...options }: ContextOptions & { user?: TestUser; path?: string } = {},
): Promise<{ context: BrowserContext; page: Page; user: TestUser }> {
  const { context, user } = await signedInContext(browser, options);
  const page = await context.newPage();
  await page.goto(at);
  return { context, page, user };
}

/** A new user's first look at a screen: signed in at `path`, once its heading and empty-state texts show. */
export async function emptyScreen(browser: Browser, path: string, heading: string, ...emptyTexts: string[]) {
  const opened = await signedInPage(browser, { path });
  await opened.page.getByRole('heading', { name: heading }).waitFor();
  for (const text of emptyTexts) await opened.page.getByText(text).waitFor();
  return opened;
}

/** Fills the sign-up page's form in as `user` and sends it. */
export async function submitSignUp(page: Page, { name, email, password }: TestUser) {
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
}

/** Saves a screenshot under web/test-results/screenshots for reviewers. */
export async function screenshot(page: Page, name: string) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Holds what `page` sends on its live connection (the GraphQL WebSocket) until the returned
 * function is called, as a slow phone network would: its subscriptions reach the server only then.
 */
export async function holdLiveMessages(page: Page) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.routeWebSocket(/\/graphql$/, (socket) => {
    const server = socket.connectToServer();
    const waiting: (string | Buffer)[] = [];
    let open = false;
    socket.onMessage((message) => (open ? server.send(message) : waiting.push(message)));
    void held.then(() => {
      open = true;
      for (const message of waiting.splice(0)) server.send(message);
    });
  });
  return release;
}

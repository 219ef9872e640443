import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser } from './chromium.ts';
import { outboxes, type RunningServer, startServer } from './server.ts';

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

/** A server of the test file's own with `env` set, started before its tests and stopped after them. */
export function ownServer(env: Record<string, string>): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the server starts before the first test: ask for it inside a test');
    return server;
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

/** A mail's body as text: quoted-printable soft breaks joined and its escapes decoded. */
function decodedMail(raw: string) {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The newest link to `page` (/verify-email, /reset-password) the server e-mailed to `email`, read
 * from its outbox (DATA_DIR/outbox) as a person reads their mail; waits up to 15 s for it.
 */
export async function mailedLink(email: string, page: string, baseURL = sharedBaseURL): Promise<string> {
  const outbox = baseURL === sharedBaseURL ? inject('outboxDir') : outboxes.get(baseURL);
  if (!outbox) throw new Error(`no outbox known for ${baseURL}`);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
    for (const file of files.reverse()) {
      const mail = decodedMail(await readFile(path.join(outbox, file), 'utf8'));
      if (!new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(mail)) continue;
      const link = new RegExp(`https?://[^\\s"<>]+${page}\\?token=[A-Za-z0-9_-]+`).exec(mail)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no ${page} link was e-mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Signs up a fresh account through the API, verifies its address with the link from the server's
 * outbox (unless `verified: false`), then signs the context in (Auth.js credentials flow).
 */
export async function signUpAndSignIn(
  context: BrowserContext,
  user: TestUser = newUser(),
  baseURL = sharedBaseURL,
  { verified = true }: { verified?: boolean } = {},
): Promise<TestUser> {
  const signup = await context.request.post(`${baseURL}/api/auth/signup`, { data: user });
  if (signup.status() !== 202) throw new Error(`sign-up failed: ${signup.status()} ${await signup.text()}`);
  if (verified) {
    const token = new URL(await mailedLink(user.email, '/verify-email', baseURL)).searchParams.get('token');
    const verify = await context.request.post(`${baseURL}/api/auth/verify-email`, { data: { token } });
    if (!verify.ok()) throw new Error(`verification failed: ${verify.status()} ${await verify.text()}`);
  }
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

/** signedInPage() on the tasks screen, with the assistant's panel opened. */
export async function assistantOpen(browser: Browser) {
  const opened = await signedInPage(browser, { path: '/tasks' });
  await opened.page.getByRole('button', { name: 'Open AI assistant' }).click();
  return opened;
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

/** A new tab of `context` on the dashboard, once its live connection is open: the bell has its count. */
export async function liveDashboardTab(context: BrowserContext): Promise<Page> {
  const tab = await context.newPage();
  await tab.goto('/');
  await tab.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await tab
    .getByRole('banner')
    .getByRole('button', { name: /^Notifications/ })
    .waitFor();
  return tab;
}

/** What `page` asks for from now on, as `pick` names each request (those it names nothing are left out). */
export function requestsOf(page: Page, pick: (request: Request) => string | undefined): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const name = pick(request);
    if (name !== undefined) asked.push(name);
  });
  return asked;
}

/** A JSON POST through a browser context's API client: the answer's JSON, or an error with the server's words. */
export async function post<T = unknown>(request: APIRequestContext, path: string, data: object = {}) {
  const answer = await request.post(path, { data });
  if (!answer.ok()) throw new Error(`${path}: ${answer.status()} ${await answer.text()}`);
  return (await answer.json()) as T;
}

/** The owner's project with the crew member in it (invited and accepted), and the gallery shared with it. */
export async function shareWithCrew(
  { context: { request: owner } }: { context: BrowserContext },
  crew: { context: BrowserContext; user: Pick<TestUser, 'email'> },
  galleryId: string,
  { projectName, permission }: { projectName: string; permission?: 'read' | 'write' },
) {
  const project = await post<{ id: string }>(owner, '/api/projects', { name: projectName });
  const invitation = await post<{ id: string }>(owner, `/api/projects/${project.id}/invitations`, {
    email: crew.user.email,
    role: 'member',
  });
  await post(crew.context.request, `/api/invitations/${invitation.id}/accept`);
  await post(owner, `/api/galleries/${galleryId}/share`, {
    projectId: project.id,
    ...(permission ? { permission } : {}),
  });
  return project;
}

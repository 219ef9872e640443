import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { DESKTOP, newUser, ownServer, sharedBrowser } from './support.ts';

// The built app against a server in production mode: only persisted operations run, and the
// content security policy (no inline scripts) must not block anything the app does.
const server = ownServer({ NODE_ENV: 'production', AUTH_SECRET: randomBytes(32).toString('base64url') });
const browser = sharedBrowser();

it('runs the screens in production mode with persisted operations and no CSP violations', async () => {
  const baseURL = server().baseURL;
  const context = await browser().newContext({ baseURL, viewport: DESKTOP });
  const user = newUser('Prod Person');
  const signup = await context.request.post(`${baseURL}/api/auth/signup`, { data: user });
  expect(signup.status()).toBe(202);
  const csrf = await context.request.get(`${baseURL}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  await context.request.post(`${baseURL}/api/auth/callback/credentials`, {
    form: { csrfToken, email: user.email, password: user.password, callbackUrl: `${baseURL}/` },
    maxRedirects: 0,
  });

  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  // Every live update of the tab shares one WebSocket: a stream per subscription held one of the
  // browser's six HTTP/1.1 connections each, and thumbnails queued behind the rest.
  const sockets: string[] = [];
  const liveFrames: { type?: string; payload?: unknown }[] = [];
  page.on('websocket', (socket) => {
    sockets.push(new URL(socket.url()).pathname);
    socket.on('framereceived', ({ payload }) => liveFrames.push(JSON.parse(String(payload))));
  });
  const streams: string[] = [];
  page.on('request', (request) => {
    if ((request.headers().accept ?? '').includes('text/event-stream')) streams.push(request.url());
  });
  const bodies: string[] = [];
  const graphqlErrors: string[] = [];
  // The build under test is the one that ships: React's development build (StrictMode's double
  // effects and renders, its warnings) would make every browser test run something else.
  const developmentScripts = new Set<string>();
  page.on('response', async (response) => {
    if (!response.url().endsWith('.js')) return;
    const text = await response.text().catch(() => '');
    if (text.includes('Download the React DevTools')) developmentScripts.add(new URL(response.url()).pathname);
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/graphql' && request.method() === 'POST')
      bodies.push(request.postData() ?? '');
  });
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname !== '/graphql') return;
    if (!(response.headers()['content-type'] ?? '').includes('json')) return;
    const text = await response.text().catch(() => '');
    if (/Only the operations|not known to the server/.test(text)) graphqlErrors.push(text);
  });

  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Out' }).waitFor();
  // Once the app has run here (and left the browser's time zone), the pages come rendered on the
  // server, each with its one inline script, which the policy allows by its hash.
  const rendered: string[] = [];
  for (const path of ['/tasks', '/files', '/galleries', '/settings', '/']) {
    const response = await page.goto(path);
    if ((await response?.text())?.includes('data-rendered=""')) rendered.push(path);
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    // Live updates keep a stream open, so the network never goes idle: give the screen a moment.
    await page.waitForTimeout(1000);
  }
  // Each address above opened with the answers its page carried; a screen reached inside the app
  // asks for its own, by its persisted id.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Galleries' }).click();
  await page.getByRole('heading', { name: 'Photo Galleries' }).waitFor();
  const headers = (await context.request.get(`${baseURL}/`)).headers();
  expect(headers['content-security-policy']).toContain("script-src 'self'");

  expect(rendered).toEqual(['/tasks', '/files', '/galleries', '/settings', '/']);
  expect(violations).toEqual([]);
  expect([...developmentScripts]).toEqual([]);
  expect(streams).toEqual([]);
  // One socket per page load (each goto above is a new page), each acknowledged and answering.
  expect(new Set(sockets)).toEqual(new Set(['/graphql']));
  expect(liveFrames.filter((f) => f.type === 'error')).toEqual([]);
  expect(liveFrames.some((f) => f.type === 'connection_ack')).toBe(true);
  expect(liveFrames.some((f) => f.type === 'next')).toBe(true);
  expect(graphqlErrors).toEqual([]);
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    expect(body).toContain('"doc_id"');
    expect(body).not.toContain('"query"');
  }
  await context.close();
}, 120_000);

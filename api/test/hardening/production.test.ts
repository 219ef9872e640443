import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { ConfigError, readConfig } from '../../src/config.ts';
import { CARRIED_PROFILE, CARRIED_READ_AT } from '../../src/users/contract.ts';
import { graphql, signedInUser, testApp, type TestApp } from '../harness.ts';

const persistedFile = readConfig({}).persistedOperationsFile;
const persisted = JSON.parse(await readFile(persistedFile, 'utf8')) as Record<string, string>;
const idOf = (name: string) => {
  const entry = Object.entries(persisted).find(([, text]) => text.startsWith(`query ${name} `));
  if (!entry) throw new Error(`no persisted ${name}`);
  return entry[0];
};

function post(app: TestApp, cookie: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request('/graphql', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('configuration', () => {
  it.each([
    ['no secret', {}],
    ['an example secret', { AUTH_SECRET: 'change-me-change-me-change-me-change-me' }],
    ['a repetitive secret', { AUTH_SECRET: 'abababababababababababababababab' }],
  ])('refuses to start in production with %s, naming AUTH_SECRET', (_name, env) => {
    expect(() => readConfig({ NODE_ENV: 'production', ...env })).toThrow(ConfigError);
    expect(() => readConfig({ NODE_ENV: 'production', ...env })).toThrow(/AUTH_SECRET/);
  });

  it('refuses the development secret a local run kept in the data directory', async () => {
    const dev = await testApp(); // makes a data directory
    const secret = randomBytes(32).toString('base64url');
    await mkdir(dev.dataDir, { recursive: true });
    await writeFile(path.join(dev.dataDir, 'auth-secret'), `${secret}\n`);
    const config = readConfig({
      NODE_ENV: 'production',
      DATA_DIR: dev.dataDir,
      AUTH_SECRET: secret,
      LOG_LEVEL: 'silent',
    });
    await expect(createApp(config, { database: dev.databaseSource })).rejects.toThrow(
      /AUTH_SECRET: is the development secret/,
    );
    await dev.close();
  });
});

/** The id under which the web build persisted the operation that starts with `start`. */
async function persistedId(start: string) {
  const file = path.join(import.meta.dirname, '../../../web/persisted-operations.json');
  const operations = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
  const found = Object.entries(operations).find(([, text]) => text.startsWith(start));
  if (!found) throw new Error(`no persisted operation starts with ${start}`);
  return found[0];
}
const themeQuery = await persistedId('query ShellThemeQuery');
const galleryQuery = await persistedId('query GalleryScreenQuery(');

describe('production mode', () => {
  let app: TestApp;
  let cookie: string;
  beforeAll(async () => {
    app = await testApp({ NODE_ENV: 'production' }, (config) => {
      // A built web app to serve (the app looks for it when it starts).
      const web = path.join(config.dataDir, 'web');
      mkdirSync(path.join(web, 'assets'), { recursive: true });
      writeFileSync(
        path.join(web, 'index.html'),
        '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
      );
      writeFileSync(path.join(web, 'assets', 'app.js'), 'console.log(1)');
      // What the build lists for the server to name in the page (web/build/preloads.ts).
      writeFileSync(
        path.join(web, 'preloads.json'),
        JSON.stringify({
          signedOut: ['/assets/out.js', '/assets/app.js'],
          signedIn: ['/assets/in.js', '/assets/app.js'],
          screens: [
            { path: '/', files: ['/assets/dashboard.js'], queries: [{ id: themeQuery, variables: {} }] },
            {
              path: '/galleries/:id',
              files: ['/assets/gallery.js', '/assets/in.js'],
              queries: [
                { id: galleryQuery, variables: { id: ':id' } },
                { id: themeQuery, variables: {} },
              ],
            },
          ],
        }),
      );
      writeFileSync(path.join(web, 'review.html'), '<!doctype html><html><body><div id="review"></div></body></html>');
      // What the build writes beside each text asset.
      writeFileSync(path.join(web, 'assets', 'app.js.br'), brotliCompressSync('console.log(1)'));
      return { ...config, webDistDir: web };
    });
    cookie = (await signedInUser(app)).cookie;
  });
  afterAll(() => app.close());

  it('serves the built web app, for client-side routes too, with strict security headers', async () => {
    for (const route of ['/', '/galleries/123', '/assets/app.js']) {
      const response = await app.request(route);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).not.toMatch(/unsafe-eval/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      // Plain http here: no HSTS (it is sent when PUBLIC_URL is https, below).
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
    expect(await (await app.request('/files')).text()).toContain('<div id="root">');
  });

  it('names in the page the scripts its visitor will run next: the signed-in app and its screen, or the signed-out pages', async () => {
    const preloaded = async (route: string, headers?: Record<string, string>) => {
      const response = await app.request(route, { headers });
      expect(response.headers.get('vary')).toContain('Cookie');
      const html = await response.text();
      // A page that carries a person's answers (below) is kept by no cache; the others are checked on each visit.
      expect(response.headers.get('cache-control')).toBe(
        html.includes('id="scoutbase-answers"') ? 'private, no-store' : 'no-cache',
      );
      expect(html).toContain('<div id="root">');
      // The mark that starts the signed-in app before the session check answers (web/src/App.tsx).
      expect(html.includes('<meta name="scoutbase-session"')).toBe(preloadsOf(html).includes('/assets/in.js'));
      return preloadsOf(html);
    };
    const preloadsOf = (html: string) =>
      [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    // The entry's own script is already in the page; no script is named twice.
    expect(await preloaded('/')).toEqual(['/assets/out.js']);
    expect(await preloaded('/galleries/123')).toEqual(['/assets/out.js']);
    expect(await preloaded('/', { cookie })).toEqual(['/assets/in.js', '/assets/dashboard.js']);
    expect(await preloaded('/galleries/123', { cookie })).toEqual(['/assets/in.js', '/assets/gallery.js']);
    expect(await preloaded('/tasks', { cookie })).toEqual(['/assets/in.js']);
    // A cookie that does not decode is no session.
    expect(await preloaded('/', { cookie: 'authjs.session-token=forged' })).toEqual(['/assets/out.js']);

    const compressed = await app.request('/files', { headers: { cookie, 'accept-encoding': 'br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await compressed.arrayBuffer())).toString()).toContain(
      'href="/assets/in.js"',
    );
  });

  it("carries a signed-in screen's first answers and the person's profile in its page, as that person may read them, and never lets them end the block", async () => {
    const owner = await signedInUser(app);
    const name = '</script><script>alert(1)</script> Harbour';
    const created = await app.request('/api/galleries', {
      method: 'POST',
      cookie: owner.cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const globalId = Buffer.from(`Gallery:${id}`).toString('base64');
    const address = `/galleries/${encodeURIComponent(globalId)}`;
    const carried = async (route: string, headers: Record<string, string> = {}) => {
      const response = await app.request(route, { headers });
      const html =
        response.headers.get('content-encoding') === 'br'
          ? brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()
          : await response.text();
      const blocks = [...html.matchAll(/<script type="application\/json" id="scoutbase-answers">(.*?)<\/script>/gs)];
      // The block ends where the server ended it: no answer's text closed it early.
      expect(html.match(/<script/g)?.length).toBe(1 + blocks.length);
      return {
        cacheControl: response.headers.get('cache-control'),
        answers: blocks[0]
          ? (JSON.parse(blocks[0][1] as string) as Record<string, { data?: Record<string, unknown>; email?: string }>)
          : null,
      };
    };
    const galleryKey = `${galleryQuery} ${JSON.stringify({ id: globalId })}`;
    const themeKey = `${themeQuery} {}`;

    const own = await carried(address, { cookie: owner.cookie, 'accept-encoding': 'br' });
    expect(own.cacheControl).toBe('private, no-store');
    expect(Object.keys(own.answers ?? {}).sort()).toEqual(
      [CARRIED_PROFILE, CARRIED_READ_AT, galleryKey, themeKey].sort(),
    );
    // When they were read, for the live connection's `since`.
    expect(Number.isNaN(Date.parse(String(own.answers?.[CARRIED_READ_AT])))).toBe(false);
    expect(own.answers?.[galleryKey]?.data?.gallery).toMatchObject({ name });
    expect(own.answers?.[themeKey]?.data).toBeTruthy();
    // The profile is GET /api/auth/user's answer, to the letter.
    const profile = await app.request('/api/auth/user', { cookie: owner.cookie });
    expect(own.answers?.[CARRIED_PROFILE]).toEqual(await profile.json());

    // Someone else at the same address: the same rules as their own request, so not the gallery.
    const other = await carried(address, { cookie });
    expect(other.answers?.[galleryKey]?.data?.gallery ?? null).toBeNull();
    expect(JSON.stringify(other.answers)).not.toContain('Harbour');
    expect(other.answers?.[CARRIED_PROFILE]?.email).not.toBe(owner.email);

    // Signed out, a forged cookie, an address with a query string, a route without queries: none.
    for (const [route, headers] of [
      [address, {}],
      [address, { cookie: 'authjs.session-token=forged' }],
      [`${address}?tab=notes`, { cookie: owner.cookie }],
      ['/tasks', { cookie: owner.cookie }],
    ] as const) {
      const page = await carried(route, headers);
      expect(page.answers, route).toBeNull();
      expect(page.cacheControl).toBe('no-cache');
    }
  });

  it('answers a review link with its own small page, checked on every visit like the app', async () => {
    const review = await app.request('/r/some-token');
    expect(review.status).toBe(200);
    expect(await review.text()).toContain('<div id="review">');
    expect(review.headers.get('cache-control')).toBe('no-cache');
    expect(review.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Only /r/{token} is the review page; the app's own routes keep the app.
    expect(await (await app.request('/review')).text()).toContain('<div id="root">');
  });

  it('serves the build’s compressed copies to browsers that take them, and lets hashed assets be cached for good', async () => {
    const compressed = await app.request('/assets/app.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('vary')).toContain('Accept-Encoding');
    expect(compressed.headers.get('content-type')).toContain('javascript');
    expect(brotliDecompressSync(Buffer.from(await compressed.arrayBuffer())).toString()).toBe('console.log(1)');
    expect(compressed.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const plain = await app.request('/assets/app.js', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe('console.log(1)');

    for (const route of ['/', '/galleries/123']) {
      expect((await app.request(route)).headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('runs the web app’s persisted operations by id', async () => {
    const response = await post(app, cookie, { doc_id: idOf('StorageUsageSlotQuery'), variables: {} });
    const body = (await response.json()) as { data?: { viewer?: { storage?: unknown } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data?.viewer?.storage).toBeTruthy();
  });

  it('refuses operation text, unknown ids and introspection', async () => {
    const text = await post(app, cookie, { query: '{ viewer { id } }' });
    expect(JSON.stringify(await text.json())).toContain('Only the operations of the Scoutbase web app are accepted.');
    const unknown = await post(app, cookie, { doc_id: 'feedfacefeedfacefeedfacefeedface' });
    expect(JSON.stringify(await unknown.json())).toContain('This operation is not known to the server.');
    const introspection = await post(app, cookie, { query: '{ __schema { types { name } } }' });
    const body = (await introspection.json()) as { data?: unknown; errors?: unknown[] };
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.length).toBeGreaterThan(0);
  });

  it('has no GraphiQL', async () => {
    const response = await app.request('/graphql', { cookie, headers: { accept: 'text/html' } });
    expect(await response.text()).not.toMatch(/graphiql/i);
  });

  it('runs every operation the web app was built with inside the depth, cost and size limits', async () => {
    const tooBig = /depth|cost|alias|token|directive/i;
    for (const id of Object.keys(persisted)) {
      const response = await post(app, cookie, { doc_id: id, variables: {} });
      const text = await response.text();
      expect(response.status, text).toBeLessThan(500);
      // Subscriptions answer only over SSE or WebSocket; a JSON request gets no body to read.
      const errors = text ? ((JSON.parse(text) as { errors?: { message: string }[] }).errors ?? []) : [];
      expect(errors.filter((e) => tooBig.test(e.message)).map((e) => `${id}: ${e.message}`)).toEqual([]);
    }
  });
});

describe('GraphQL limits (every mode)', () => {
  let app: TestApp;
  let cookie: string;
  beforeAll(async () => {
    app = await testApp();
    cookie = (await signedInUser(app)).cookie;
  });
  afterAll(() => app.close());

  it('refuses operations nested too deeply', async () => {
    const nested = `${'parent { '.repeat(16)}id${' }'.repeat(16)}`;
    const result = await graphql(app, cookie, `query($id: ID!) { node(id: $id) { ... on Folder { ${nested} } } }`, {
      id: 'x',
    });
    expect(result.data ?? null).toBeNull();
    expect(result.errors?.[0]?.message).toMatch(/depth/i);
  });

  it('refuses too many aliases and oversized documents', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: viewer { id }`).join(' ');
    const many = await graphql(app, cookie, `{ ${aliases} }`);
    expect(many.errors?.[0]?.message).toMatch(/alias/i);
    const huge = await graphql(app, cookie, `{ viewer { ${'id '.repeat(5000)} } }`);
    expect(huge.errors?.[0]?.message).toMatch(/token/i);
  });
});

describe('cross-site requests', () => {
  let app: TestApp;
  let cookie: string;
  beforeAll(async () => {
    app = await testApp({ PUBLIC_URL: 'https://scout.example.com', NODE_ENV: 'production' });
    cookie = (await signedInUser(app)).cookie;
  });
  afterAll(() => app.close());

  const createTask = (headers: Record<string, string>) =>
    app.request('/api/tasks', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ title: 'From elsewhere' }),
    });

  it('refuses state-changing requests another site makes with the session cookie', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://files.scout.example.com' },
      { origin: 'null' },
    ]) {
      const response = await createTask(headers);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: 'This request came from another site and was refused.' });
    }
    const tasks = (await (await app.request('/api/tasks', { cookie })).json()) as unknown[];
    expect(tasks).toEqual([]);
  });

  it('takes the same requests from the app’s own pages and from scripts', async () => {
    expect((await createTask({ origin: 'https://scout.example.com', 'sec-fetch-site': 'same-origin' })).status).toBe(
      201,
    );
    expect((await createTask({})).status).toBe(201);
  });

  it('takes GraphQL only as JSON, so a form elsewhere cannot post it', async () => {
    const response = await app.request('/graphql', {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ viewer { id } }' }),
    });
    expect(response.status).toBe(415);
  });

  it('sends HSTS behind https', async () => {
    const response = await app.request('/api/health');
    expect(response.headers.get('strict-transport-security')).toContain('max-age=31536000');
  });
});

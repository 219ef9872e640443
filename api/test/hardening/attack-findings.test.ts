// The findings of the outside attack run of issue 52, each replayed: the session cookie over https,
// the data folder's permissions, a broken multipart body, the owner's folder on a shared file,
// schema suggestions in production errors, the review API's referrer policy, and a refused restore.
import { chmod, lstat, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { ZipFile } from 'yazl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { readConfig } from '../../src/config.ts';
import { uploadFile, newFolder } from '../../src/files/testing.ts';
import { uploaded } from '../../src/storage/testing.ts';
import { call, makeGallery } from '../../src/galleries/testing.ts';
import { reviewedGallery } from '../../src/reviews/testing.ts';
import { crewProject } from '../fixtures.ts';
import { CookieJar, graphql, person, send, settingsFor, signedInUser, testApp, type TestApp } from '../harness.ts';
import { scratchFolders } from '../scratch.ts';
import { productionSettings, runScript, signInOver, startServer } from '../server-process.ts';
import { keepFilesPrivate } from '../../src/infra/private-files.ts';

// Each test starts an app of its own (or a server): slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const folder = scratchFolders();

/** The Set-Cookie lines of an answer, by cookie name. */
function setCookies(response: Response) {
  return new Map(response.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), line]));
}

/** Auth.js's credentials sign-in with extra headers on each request (a proxy's X-Forwarded-Proto). */
async function signInWith(app: TestApp, who: { email: string; password: string }, headers: Record<string, string>) {
  const jar = new CookieJar();
  const csrf = await app.request('/api/auth/csrf', { headers });
  jar.store(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await app.request('/api/auth/callback/credentials', {
    method: 'POST',
    cookie: jar.header,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ email: who.email, password: who.password, csrfToken }),
  });
  jar.store(response);
  return { jar, csrf, response };
}

describe('the session cookie over https', () => {
  it('is Secure and __Secure- named with PUBLIC_URL=https://…, and the session works', async () => {
    const app = await testApp({ PUBLIC_URL: 'https://scout.example.com' });
    try {
      const who = await signedInUser(app);
      const { jar, csrf, response } = await signInWith(app, who, {});
      const session = setCookies(response).get('__Secure-authjs.session-token');
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
      expect(setCookies(response).has('authjs.session-token')).toBe(false);
      // The CSRF and callback cookies too.
      expect(setCookies(csrf).get('__Host-authjs.csrf-token')).toMatch(/;\s*Secure/i);
      expect(setCookies(csrf).get('__Secure-authjs.callback-url')).toMatch(/;\s*Secure/i);
      // Auth.js sends the browser on to the public address.
      expect(response.headers.get('location')).toBe('https://scout.example.com');
      const user = await app.request('/api/auth/user', { cookie: jar.header });
      expect(user.status).toBe(200);
      expect(((await user.json()) as { email: string }).email).toBe(who.email);
    } finally {
      await app.close();
    }
  });

  it('is Secure behind a trusted proxy that says X-Forwarded-Proto: https', async () => {
    const app = await testApp({ TRUST_PROXY: '1' });
    try {
      const who = await signedInUser(app);
      const { jar, response } = await signInWith(app, who, { 'x-forwarded-proto': 'https' });
      expect(setCookies(response).get('__Secure-authjs.session-token')).toMatch(/;\s*Secure/i);
      expect(response.headers.get('location')).toBe('https://scoutbase.test');
      expect((await app.request('/api/auth/user', { cookie: jar.header })).status).toBe(200);
      // Signing out ends that session (Auth.js reads the cookie under the same name).
      const csrf = await app.request('/api/auth/csrf', {
        cookie: jar.header,
        headers: { 'x-forwarded-proto': 'https' },
      });
      jar.store(csrf);
      const out = await app.request('/api/auth/signout', {
        method: 'POST',
        cookie: jar.header,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
        body: new URLSearchParams({ csrfToken: ((await csrf.json()) as { csrfToken: string }).csrfToken }),
      });
      const before = jar.header;
      jar.store(out);
      expect(jar.has('__Secure-authjs.session-token')).toBe(false);
      expect((await app.request('/api/auth/user', { cookie: before })).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('stays a plain cookie on plain http, and a header from an untrusted client changes nothing', async () => {
    const app = await testApp();
    try {
      const who = await signedInUser(app);
      for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
        const { jar, response } = await signInWith(app, who, headers);
        const session = setCookies(response).get('authjs.session-token');
        expect(session).toBeDefined();
        expect(session).not.toMatch(/;\s*Secure/i);
        expect(setCookies(response).has('__Secure-authjs.session-token')).toBe(false);
        expect(response.headers.get('location')).toBe('http://scoutbase.test');
        expect((await app.request('/api/auth/user', { cookie: jar.header })).status).toBe(200);
      }
    } finally {
      await app.close();
    }
  });
});

/** Every path under `dir` (symlinks themselves, not followed) with its permission bits. */
async function modesUnder(dir: string) {
  const out = new Map<string, number>();
  async function walk(at: string) {
    const info = await lstat(at);
    out.set(at, info.mode & 0o777);
    if (info.isDirectory()) for (const name of await readdir(at)) await walk(path.join(at, name));
  }
  await walk(dir);
  return out;
}

function looser(modes: Map<string, number>, symlinks: Set<string> = new Set()) {
  return [...modes]
    .filter(([at]) => !symlinks.has(at))
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([at, mode]) => `${at} ${mode.toString(8)}`);
}

describe('the data folder', () => {
  // What src/main.ts and the commands do first: new files and folders are the owner's alone.
  beforeAll(() => keepFilesPrivate());

  it('is tightened at start to the owner alone, with one log line, leaving symlinks alone', async () => {
    const dataDir = await folder('loose');
    const outside = await folder('outside');
    await chmod(dataDir, 0o755);
    await mkdir(path.join(dataDir, 'objects', 'uploads'), { recursive: true });
    await chmod(path.join(dataDir, 'objects', 'uploads'), 0o755);
    await writeFile(path.join(dataDir, 'objects', 'uploads', 'someone'), 'bytes', { mode: 0o644 });
    await chmod(path.join(dataDir, 'objects', 'uploads', 'someone'), 0o666);
    await chmod(path.join(dataDir, 'objects'), 0o777);
    await writeFile(path.join(outside, 'theirs.txt'), 'not ours');
    await chmod(path.join(outside, 'theirs.txt'), 0o644);
    await symlink(path.join(outside, 'theirs.txt'), path.join(dataDir, 'link-out'));

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const start = async () => {
      const config = readConfig({ ...settingsFor(dataDir), LOG_LEVEL: 'info' });
      config.auth.scryptCost = 2 ** 10;
      return createApp(config, { logger: pino({ level: 'info' }, sink) });
    };
    const app = await start();
    await app.close();
    const said = lines.filter((line) => line.includes('tightened permissions'));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0] as string).msg).toBe('tightened permissions of 4 paths under DATA_DIR');

    const modes = await modesUnder(dataDir);
    expect(looser(modes, new Set([path.join(dataDir, 'link-out')]))).toEqual([]);
    expect(modes.get(dataDir)).toBe(0o700);
    expect(modes.get(path.join(dataDir, 'objects', 'uploads', 'someone'))).toBe(0o600);
    // The embedded database's own files (PGlite writes them 0666) are the owner's alone too.
    expect([...modes.keys()].filter((at) => at.includes(`${path.sep}db${path.sep}`)).length).toBeGreaterThan(100);
    // A link is not followed: what it points to outside is someone else's business.
    expect((await lstat(path.join(outside, 'theirs.txt'))).mode & 0o777).toBe(0o644);

    // Nothing loose the second time: nothing said.
    lines.length = 0;
    await (await start()).close();
    expect(lines.filter((line) => line.includes('tightened permissions'))).toEqual([]);
  }, 120_000);

  it('the running server writes everything for its owner alone (umask), its database included', async () => {
    const dataDir = await folder('umask');
    const server = await startServer({ ...(await productionSettings(dataDir)), LOG_LEVEL: 'warn' });
    try {
      const who = person();
      const signup = await fetch(`${server.origin}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(who),
      });
      expect(signup.ok).toBe(true);
      const cookie = (await signInOver(server.origin, who)).header;
      const folderMade = await fetch(`${server.origin}/api/folders`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Recce' }),
      });
      expect(folderMade.status).toBe(201);
    } finally {
      await server.stop();
    }
    expect(server.log()).not.toMatch(/tightened permissions/);
    const modes = await modesUnder(dataDir);
    expect([...modes.keys()].filter((at) => at.includes(`${path.sep}db${path.sep}`)).length).toBeGreaterThan(100);
    expect(looser(modes)).toEqual([]);
  }, 240_000);
});

describe('REST bodies', () => {
  it('a body that says multipart/form-data but is not answers 400, not 500', async () => {
    const app = await testApp();
    try {
      const who = await signedInUser(app);
      const answer = await app.request('/api/folders', {
        method: 'POST',
        cookie: who.cookie,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: '{"name":"not a form"}',
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toBe('The request body is not valid form data.');
    } finally {
      await app.close();
    }
  });
});

describe('a file seen through a shared gallery', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it("does not show the owner's folder over REST, as GraphQL does not", async () => {
    const owner = await signedInUser(app);
    const viewer = await signedInUser(app);
    const folderOfOwner = await newFolder(app, owner.cookie, 'Private scouting');
    const file = await uploadFile(app, owner, { name: 'loft.jpg', folderId: folderOfOwner.id });
    const gallery = await makeGallery(app, owner.cookie);
    expect(
      (await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] })).status,
    ).toBe(201);
    const project = await crewProject(app, 'Night Shift', owner, viewer);
    const shared = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/share`, {
      projectId: project.id,
    });
    expect(shared.status).toBe(201);

    const seen = await send(app, viewer.cookie, 'GET', `/api/files/${file.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.folderId).toBeNull();
    // A gallery's items carry no folder at all.
    const items = await send(app, viewer.cookie, 'GET', `/api/galleries/${gallery.id}/items`);
    expect(items.status).toBe(200);
    expect(items.body[0].file.id).toBe(file.id);
    expect(items.body[0].file.folderId).toBeUndefined();

    // The owner still sees where it is.
    expect((await send(app, owner.cookie, 'GET', `/api/files/${file.id}`)).body.folderId).toBe(folderOfOwner.id);
    const search = await send(app, viewer.cookie, 'GET', '/api/files/search?q=loft');
    for (const found of search.body as { id: string; folderId: string | null }[]) {
      if (found.id === file.id) expect(found.folderId).toBeNull();
    }
  });
});

describe('GraphQL errors in production', () => {
  it('do not suggest names of the schema ("Did you mean …")', async () => {
    const persisted = (await import('../../../web/persisted-operations.json', { with: { type: 'json' } }))
      .default as Record<string, string>;
    const [id] = Object.entries(persisted).find(([, text]) => text.startsWith('query GalleriesScreenQuery(')) ?? [];
    expect(id).toBeDefined();
    const production = await testApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://scout.example.com' });
    const development = await testApp();
    try {
      for (const [app, suggests] of [
        [production, false],
        [development, true],
      ] as const) {
        const who = await signedInUser(app);
        const answer = await app.request('/graphql', {
          method: 'POST',
          cookie: who.cookie,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ doc_id: id, variables: { sort: 'recen' } }),
        });
        const body = (await answer.json()) as { errors: { message: string }[] };
        const message = body.errors.map((e) => e.message).join('\n');
        expect(message).toContain('"recen"');
        expect(/Did you mean/.test(message)).toBe(suggests);
        expect(message.includes('"recent"')).toBe(suggests);
      }
      // Operation text (outside production) too: armor's rule only masked field suggestions.
      const who = await signedInUser(development);
      const typo = await graphql(development, who.cookie, '{ galleries(sort: recen) { totalCount } }');
      expect(typo.errors?.[0]?.message).toMatch(/Did you mean/);
    } finally {
      await production.close();
      await development.close();
    }
  });
});

describe('served files in production', () => {
  it("keep their own sandboxed policy, not the pages' one", async () => {
    const app = await testApp({ NODE_ENV: 'production', PUBLIC_URL: 'https://scout.example.com' });
    try {
      const owner = await signedInUser(app);
      const { objectPath } = await uploaded(app, owner, 'call sheet: <script>alert(1)</script>');
      const answer = await app.request(objectPath, { cookie: owner.cookie });
      expect(answer.status).toBe(200);
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy).toContain('sandbox');
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toContain("script-src 'self'");
      // The pages keep the app's policy.
      expect((await app.request('/api/health')).headers.get('content-security-policy')).toContain("script-src 'self'");
    } finally {
      await app.close();
    }
  });
});

describe('the review API', () => {
  it('keeps its own Referrer-Policy: no-referrer', async () => {
    const app = await testApp();
    try {
      const owner = await signedInUser(app);
      const { token } = await reviewedGallery(app, owner);
      const answer = await app.request(`/api/review/${token}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      // Everything else keeps the global one.
      expect((await app.request('/api/health')).headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    } finally {
      await app.close();
    }
  });
});

/** A ZIP of these entries (name → text) written to a file of its own. */
async function zipFile(dir: string, entries: Record<string, string>) {
  const zip = new ZipFile();
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const file = path.join(dir, `archive-${Math.random().toString(36).slice(2)}.zip`);
  await writeFile(file, Buffer.concat(chunks));
  return file;
}

describe('pnpm restore of a refused archive', () => {
  it('prints its message in one line, no stack, and exits non-zero', async () => {
    const dir = await folder('restore-refused');
    const manifest = (fields: object) =>
      JSON.stringify({ format: 'scoutbase-backup', version: 1, createdAt: '2026-12-01T00:00:00Z', ...fields });
    const archives = {
      'a manifest that is not JSON': await zipFile(dir, { 'manifest.json': 'not json {' }),
      'a manifest without its database': await zipFile(dir, { 'manifest.json': manifest({ entries: [] }) }),
      'a manifest whose entries are not a list': await zipFile(dir, {
        'manifest.json': manifest({ database: { kind: 'pglite', entry: 'x' }, entries: 'all of them' }),
      }),
    };
    for (const [what, archive] of Object.entries(archives)) {
      const target = await folder('restore-target');
      const run = await runScript('scripts/restore.ts', [archive], settingsFor(target));
      expect({ what, code: run.code }).toEqual({ what, code: 1 });
      const lines = run.stderr.trim().split('\n');
      expect({ what, lines: lines.length, stack: /\n\s+at /.test(run.stderr) }).toEqual({
        what,
        lines: 1,
        stack: false,
      });
      expect(run.stderr).toMatch(/not a Scoutbase backup|damaged/);
    }
  }, 180_000);
});

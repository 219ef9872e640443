import { CONNECTION_SCRIPT_HASH } from './connection-page.ts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeFile,
  type FakeProvider,
  startFakeDropbox,
  startFakeGoogleDrive,
} from '../../test/fakes/file-providers.ts';
import { type SignedInUser as User, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { decryptToken, importKeys } from './oauth.ts';
import { call, finished, jpeg } from './testing.ts';

interface Case {
  source: 'google-drive' | 'dropbox';
  start(files: FakeFile[]): Promise<FakeProvider>;
  env(fake: FakeProvider): Record<string, string>;
  ids: { folder: string; photo: string; nested: string; broken: string; root: string };
  account: string;
  consentParams: Record<string, string>;
}

const cases: Case[] = [
  {
    source: 'google-drive',
    start: startFakeGoogleDrive,
    env: (fake) => ({
      GOOGLE_DRIVE_CLIENT_ID: fake.clientId,
      GOOGLE_DRIVE_CLIENT_SECRET: fake.clientSecret,
      GOOGLE_DRIVE_AUTH_URL: `${fake.url}/o/oauth2/v2/auth`,
      GOOGLE_DRIVE_TOKEN_URL: `${fake.url}/token`,
      GOOGLE_DRIVE_API_URL: fake.url,
    }),
    ids: { folder: 'fld-scouting', photo: 'img-warehouse', nested: 'img-roof', broken: 'img-broken', root: 'root' },
    account: 'scout@drive.example',
    consentParams: { access_type: 'offline', prompt: 'consent' },
  },
  {
    source: 'dropbox',
    start: startFakeDropbox,
    env: (fake) => ({
      DROPBOX_CLIENT_ID: fake.clientId,
      DROPBOX_CLIENT_SECRET: fake.clientSecret,
      DROPBOX_AUTH_URL: `${fake.url}/oauth2/authorize`,
      DROPBOX_API_URL: fake.url,
      DROPBOX_CONTENT_URL: fake.url,
    }),
    ids: {
      folder: 'id:scouting',
      photo: 'id:warehouse',
      nested: 'id:roof',
      broken: 'id:broken',
      root: 'root',
    },
    account: 'scout@dropbox.example',
    consentParams: { token_access_type: 'offline' },
  },
];

describe.each(cases)('$source', (c) => {
  let fake: FakeProvider;
  let app: TestApp;
  let owner: User;
  let stranger: User;
  let photo: Buffer;
  let roof: Buffer;

  beforeAll(async () => {
    photo = await jpeg('#112233');
    roof = await jpeg('#887766', 120, 90);
    fake = await c.start([
      { id: c.ids.folder, name: 'Scouting', folder: true, parent: c.ids.root },
      { id: c.ids.photo, name: 'Warehouse.jpg', parent: c.ids.root, bytes: photo, mimeType: 'image/jpeg' },
      { id: c.ids.nested, name: 'Roof.jpg', parent: c.ids.folder, bytes: roof, mimeType: 'image/jpeg' },
      {
        id: c.ids.broken,
        name: 'Broken.jpg',
        parent: c.ids.folder,
        bytes: roof,
        mimeType: 'image/jpeg',
        failWith: 500,
      },
      {
        id: c.source === 'dropbox' ? 'id:notes' : 'doc-notes',
        name: 'Notes.txt',
        parent: c.ids.root,
        bytes: Buffer.from('Notes from the recce.\n'),
        mimeType: 'text/plain',
      },
    ]);
    app = await testApp(c.env(fake));
    owner = await signedInUser(app);
    stranger = await signedInUser(app);
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  /** What a browser does: open connect, "consent" at the provider, come back to the callback. */
  async function connect(who: User) {
    const started = await app.request(`/api/imports/${c.source}/connect`, { cookie: who.cookie });
    expect(started.status).toBe(302);
    const consent = new URL(started.headers.get('location') as string);
    const redirectUri = consent.searchParams.get('redirect_uri') as string;
    const code = `code-${Math.random().toString(36).slice(2)}`;
    fake.codes.set(code, redirectUri);
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', consent.searchParams.get('state') as string);
    const callback = await app.request(back.pathname + back.search, { cookie: who.cookie });
    return { consent, callback, redirectUri };
  }

  it('is offered but not connected before the person connects', async () => {
    const { body } = await call(app, owner.cookie, 'GET', '/api/imports/sources');
    expect(body.find((s: { id: string }) => s.id === c.source)).toEqual({
      id: c.source,
      name: c.source === 'dropbox' ? 'Dropbox' : 'Google Drive',
      available: true,
      connected: false,
      account: null,
    });
    const items = await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items`);
    expect(items.status).toBe(409);
    expect(items.body.message).toMatch(/^Connect (Google Drive|Dropbox) first\.$/);
  });

  it('connects through the authorization-code flow and keeps the tokens encrypted', async () => {
    const { consent, callback, redirectUri } = await connect(owner);
    expect(consent.origin + consent.pathname).toBe(
      c.env(fake)[c.source === 'dropbox' ? 'DROPBOX_AUTH_URL' : 'GOOGLE_DRIVE_AUTH_URL'],
    );
    expect(consent.searchParams.get('client_id')).toBe(fake.clientId);
    expect(consent.searchParams.get('response_type')).toBe('code');
    expect(redirectUri).toBe(`http://scoutbase.test/api/imports/${c.source}/callback`);
    for (const [key, value] of Object.entries(c.consentParams)) expect(consent.searchParams.get(key)).toBe(value);

    expect(callback.status).toBe(200);
    const page = await callback.text();
    expect(page).toContain('scoutbase:import-connection');
    expect(page).toContain('window.opener.postMessage');
    expect(page).not.toMatch(/access-\d/);

    const exchange = fake.seen.find((s) => s.path.endsWith('token') && s.body.includes('authorization_code'));
    const form = new URLSearchParams(exchange?.body);
    expect(form.get('redirect_uri')).toBe(redirectUri);
    expect(form.get('client_secret')).toBe(fake.clientSecret);

    const row = await app.database.prisma.importConnection.findUniqueOrThrow({
      where: { userId_provider: { userId: owner.id, provider: c.source } },
    });
    expect(row.accessToken).not.toContain(`${c.source === 'dropbox' ? 'dropbox' : 'drive'}-access`);
    expect(row.refreshToken).not.toContain('refresh');
    const key = importKeys(app.secret).tokenKey;
    expect(fake.accessTokens.has(decryptToken(key, row.accessToken) as string)).toBe(true);
    expect(fake.refreshTokens.has(decryptToken(key, row.refreshToken as string) as string)).toBe(true);

    const { body } = await call(app, owner.cookie, 'GET', '/api/imports/sources');
    expect(body.find((s: { id: string }) => s.id === c.source)).toMatchObject({ connected: true, account: c.account });
    // Nothing the server answers carries a token.
    expect(JSON.stringify(body)).not.toMatch(/access-|refresh-/);
  });

  it('lists the top level over pages, opens folders and searches, sending the bearer token', async () => {
    const top = await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items`);
    expect(top.status).toBe(200);
    expect(top.body.map((i: { name: string; type: string }) => [i.name, i.type])).toEqual([
      ['Scouting', 'folder'],
      ['Notes.txt', 'file'],
      ['Warehouse.jpg', 'image'],
    ]);
    const warehouse = top.body[2];
    expect(warehouse).toMatchObject({ id: c.ids.photo, size: photo.length });
    expect(warehouse.thumbnail).toBe(`/api/imports/${c.source}/thumbnail?id=${encodeURIComponent(c.ids.photo)}`);
    const thumb = await app.request(warehouse.thumbnail, { cookie: owner.cookie });
    expect(thumb.status).toBe(200);
    expect(Buffer.from(await thumb.arrayBuffer()).toString()).toBe('fake-thumbnail');

    const inside = await call(
      app,
      owner.cookie,
      'GET',
      `/api/imports/${c.source}/items?folder=${encodeURIComponent(c.ids.folder)}`,
    );
    expect(inside.body.map((i: { name: string }) => i.name)).toEqual(['Broken.jpg', 'Roof.jpg']);

    const found = await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items?search=roof`);
    expect(found.body.map((i: { id: string }) => i.id)).toEqual([c.ids.nested]);
    const none = await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items?search=zeppelin`);
    expect(none).toMatchObject({ status: 200, body: [] });

    const apiCalls = fake.seen.filter((s) => !s.path.endsWith('token'));
    expect(apiCalls.length).toBeGreaterThan(4);
    for (const s of apiCalls)
      expect(s.authorization).toMatch(
        new RegExp(`^Bearer ${c.source === 'dropbox' ? 'dropbox' : 'drive'}-access-\\d+$`),
      );
  });

  it('imports the chosen files with their bytes intact; a file the source fails on does not stop the job', async () => {
    const started = await call(app, owner.cookie, 'POST', '/api/imports', {
      source: c.source,
      itemIds: [c.ids.photo, c.ids.broken, c.ids.nested],
    });
    expect(started.status).toBe(202);
    const job = await finished(app, owner.cookie, started.body.id);
    expect(job).toMatchObject({ status: 'completed', total: 3, done: 3, imported: 2 });
    expect(job.failed).toEqual([{ name: 'Broken.jpg', message: 'Connection failed. Please try again.' }]);
    const files = await app.database.prisma.file.findMany({
      where: { id: { in: job.fileIds } },
      orderBy: { name: 'asc' },
    });
    expect(files.map((f) => [f.name, f.checksum])).toEqual([
      ['Roof.jpg', createHash('sha256').update(roof).digest('hex')],
      ['Warehouse.jpg', createHash('sha256').update(photo).digest('hex')],
    ]);
  });

  it('refuses a folder among the chosen items and items the source does not have', async () => {
    const folder = await call(app, owner.cookie, 'POST', '/api/imports', { source: c.source, itemIds: [c.ids.folder] });
    expect(folder.status).toBe(400);
    expect(folder.body.message).toBe('"Scouting" is a folder. Folders cannot be imported; choose the files in it.');
    const missing = await call(app, owner.cookie, 'POST', '/api/imports', {
      source: c.source,
      itemIds: [c.source === 'dropbox' ? 'id:nothing' : 'nothing'],
    });
    expect(missing.status).toBe(404);
  });

  it('keeps one person’s connection from another: the stranger is not connected', async () => {
    const items = await call(app, stranger.cookie, 'GET', `/api/imports/${c.source}/items`);
    expect(items.status).toBe(409);
    const started = await call(app, stranger.cookie, 'POST', '/api/imports', {
      source: c.source,
      itemIds: [c.ids.photo],
    });
    expect(started.status).toBe(409);
  });

  it('refreshes an expired access token before calling, and again when the provider says 401', async () => {
    const where = { userId_provider: { userId: owner.id, provider: c.source } };
    const key = importKeys(app.secret).tokenKey;
    await app.database.prisma.importConnection.update({ where, data: { expiresAt: new Date(Date.now() - 1000) } });
    const before = decryptToken(
      key,
      (await app.database.prisma.importConnection.findUniqueOrThrow({ where })).accessToken,
    );
    expect((await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items`)).status).toBe(200);
    const afterExpiry = await app.database.prisma.importConnection.findUniqueOrThrow({ where });
    const refreshed = decryptToken(key, afterExpiry.accessToken);
    expect(refreshed).not.toBe(before);
    expect(afterExpiry.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 3000_000);

    // The provider revokes the token early: one 401, a refresh, and the call goes through.
    fake.accessTokens.clear();
    expect((await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items`)).status).toBe(200);
    const afterRevoke = decryptToken(
      key,
      (await app.database.prisma.importConnection.findUniqueOrThrow({ where })).accessToken,
    );
    expect(afterRevoke).not.toBe(refreshed);
    expect(fake.accessTokens.has(afterRevoke as string)).toBe(true);
  });

  it('answers "Connection failed" when the provider cannot be reached', async () => {
    const api = c.source === 'dropbox' ? 'DROPBOX_API_URL' : 'GOOGLE_DRIVE_API_URL';
    const down = await testApp({ ...c.env(fake), [api]: 'http://127.0.0.1:9' });
    try {
      const user = await signedInUser(down);
      await down.database.prisma.importConnection.create({
        data: {
          userId: user.id,
          provider: c.source,
          accessToken: (await import('./oauth.ts')).encryptToken(importKeys(down.secret).tokenKey, 'whatever'),
        },
      });
      const items = await call(down, user.cookie, 'GET', `/api/imports/${c.source}/items`);
      expect(items).toMatchObject({ status: 502, body: { message: 'Connection failed. Please try again.' } });
    } finally {
      await down.close();
    }
  });

  it('refuses a tampered or foreign state, and tells the dialog when the provider says no', async () => {
    const { consent } = await (async () => {
      const started = await app.request(`/api/imports/${c.source}/connect`, { cookie: owner.cookie });
      return { consent: new URL(started.headers.get('location') as string) };
    })();
    const state = consent.searchParams.get('state') as string;
    // One character of the signature changed, well inside it: a character there carries six whole
    // bits, so the signature always differs (the last one carries only four, and replacing the last
    // two with 'xx' left one state in about a thousand as it was).
    const at = state.length - 10;
    const tampered = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
    const bad = await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/callback?code=x&state=${tampered}`);
    expect(bad.status).toBe(403);
    // The stranger cannot finish the owner's flow with the owner's state.
    const foreign = await call(app, stranger.cookie, 'GET', `/api/imports/${c.source}/callback?code=x&state=${state}`);
    expect(foreign.status).toBe(403);
    const denied = await app.request(`/api/imports/${c.source}/callback?error=access_denied&state=${state}`, {
      cookie: owner.cookie,
    });
    expect(denied.status).toBe(400);
    expect(await denied.text()).toContain('Connection failed. Please try again.');
    const wrongCode = await app.request(`/api/imports/${c.source}/callback?code=never-issued&state=${state}`, {
      cookie: owner.cookie,
    });
    expect(wrongCode.status).toBe(400);
    const page = await wrongCode.text();
    expect(page).toContain('data-ok="false"');
    // Production's content security policy allows this page's script by its hash alone.
    const script = /<script>([\s\S]*)<\/script>/.exec(page)?.[1] ?? '';
    expect(`'sha256-${createHash('sha256').update(script).digest('base64')}'`).toBe(CONNECTION_SCRIPT_HASH);
  });

  it('ends the connection when the provider refuses the refresh token, and disconnects on request', async () => {
    fake.accessTokens.clear();
    fake.refreshTokens.clear();
    const items = await call(app, owner.cookie, 'GET', `/api/imports/${c.source}/items`);
    expect(items.status).toBe(409);
    expect(items.body.message).toMatch(/connection has expired/);
    const { body } = await call(app, owner.cookie, 'GET', '/api/imports/sources');
    expect(body.find((s: { id: string }) => s.id === c.source)).toMatchObject({ connected: false });

    await connect(owner);
    expect(await call(app, owner.cookie, 'DELETE', `/api/imports/${c.source}/connection`)).toMatchObject({
      status: 200,
      body: { disconnected: true },
    });
    expect(await app.database.prisma.importConnection.count({ where: { userId: owner.id } })).toBe(0);
  });
});

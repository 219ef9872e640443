import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type HttpBindings } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reserveQuota } from '../../src/storage/rules.ts';
import { uploadUrl } from '../../src/storage/testing.ts';
import { countStatements } from '../statements.ts';
import { signedInUser, testApp, type SignedInUser, type TestApp, sendBody } from '../harness.ts';

// Issue 17 item 5: the quota was read, not reserved, so uploads racing each other all fitted.
// Now each upload reserves its room when its bytes start (PUT, tus, UploadThing alike) and gives it
// back when it fails, is refused or expires. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.

const KB = 1024;
const QUOTA = 300 * KB;

let app: TestApp;
beforeAll(async () => {
  app = await testApp({ STORAGE_QUOTA: String(QUOTA) });
});
afterAll(() => app.close());

/** A PDF-looking file (a signature the type check accepts). */
function pdf(size: number) {
  const bytes = randomBytes(size);
  bytes.set(Buffer.from('%PDF-1.7\n'));
  return new Uint8Array(bytes);
}

function program(size: number) {
  const bytes = randomBytes(size);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
  return new Uint8Array(bytes);
}

async function fileIt(who: SignedInUser, objectUrl: string, name: string) {
  return sendBody(app, who.cookie, 'POST', '/api/files', { name, originalName: name, objectUrl });
}

async function usedBytes(who: SignedInUser) {
  const usage = await app.request('/api/storage/usage', { cookie: who.cookie });
  return ((await usage.json()) as { usedBytes: number }).usedBytes;
}

const TUS = { 'tus-resumable': '1.0.0' };

function tusCreate(who: SignedInUser, uploadURL: string, length: number) {
  return app.request('/api/objects/tus', {
    method: 'POST',
    cookie: who.cookie,
    headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': `uploadURL ${btoa(uploadURL)}` },
  });
}

function tusPatch(who: SignedInUser, location: string, offset: number, body: Uint8Array) {
  return app.request(location, {
    method: 'PATCH',
    cookie: who.cookie,
    headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body: body as BodyInit,
  });
}

/** Sends the six uploads at once, then files the ones accepted; answers the statuses. */
async function raceAndFile(who: SignedInUser, send: (url: string) => Promise<Response>) {
  const urls = await Promise.all(Array.from({ length: 6 }, () => uploadUrl(app, who)));
  const answers = await Promise.all(urls.map(send));
  const statuses = answers.map((a) => a.status);
  for (const answer of answers) {
    if (answer.status >= 300) {
      expect(answer.status).toBe(413);
      expect(((await answer.json()) as { message: string }).message).toMatch(/^Storage quota exceeded/);
    } else await answer.body?.cancel();
  }
  for (const [index, url] of urls.entries()) {
    if ((statuses[index] ?? 500) < 300) expect((await fileIt(who, url, `scout-${index}.pdf`)).status).toBe(201);
  }
  return statuses;
}

describe('the storage quota is reserved when an upload starts', () => {
  it('takes one statement to reserve, grow or refuse (five round trips as a transaction)', async () => {
    const who = await signedInUser(app);
    const uploadId = new URL(await uploadUrl(app, who), 'http://x').pathname.split('/').at(-1) as string;
    const upload = { id: uploadId, userId: who.id };
    let held = 0;
    expect(await countStatements(async () => (held = await reserveQuota(app.services, upload, 10 * KB)))).toBe(1);
    expect(held).toBe(10 * KB);
    expect(
      await countStatements(() => reserveQuota(app.services, upload, 20 * KB, 80 * KB).then((h) => (held = h))),
    ).toBe(1);
    expect(held).toBe(80 * KB);
    const refused = reserveQuota(app.services, upload, QUOTA + 1);
    await expect(refused).rejects.toMatchObject({ status: 413 });
    await expect(refused).rejects.toThrow(/^Storage quota exceeded: 0 Bytes of 300.00 KB used/);
    await expect(
      reserveQuota(app.services, { id: uploadId, userId: (await signedInUser(app)).id }, 1),
    ).rejects.toMatchObject({ status: 403 });
  });

  // The embedded database is one connection, so its time zone can be moved for this test alone.
  it.skipIf(process.env.TEST_DATABASE_URL)(
    'holds the room for the upload URL lifetime whatever the database time zone',
    async () => {
      const who = await signedInUser(app);
      const idOf = async () => new URL(await uploadUrl(app, who), 'http://x').pathname.split('/').at(-1) as string;
      const [first, second] = [await idOf(), await idOf()];
      await app.database.prisma.$executeRawUnsafe(`SET TIME ZONE 'Pacific/Auckland'`);
      try {
        await reserveQuota(app.services, { id: first, userId: who.id }, 200 * KB);
        const { expiresAt } = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: first } });
        const ttl = app.config.storage.uploadUrlTtlSeconds * 1000;
        expect(Math.abs(expiresAt.getTime() - (Date.now() + ttl))).toBeLessThan(5000);
        // Read in the wrong zone, the first hold would look expired and let this one overshoot.
        await expect(reserveQuota(app.services, { id: second, userId: who.id }, 200 * KB)).rejects.toMatchObject({
          status: 413,
        });
      } finally {
        await app.database.prisma.$executeRawUnsafe('RESET TIME ZONE');
      }
    },
  );

  it('six concurrent 190 KB PUTs without a length against a 300 KB quota: one is filed', async () => {
    const who = await signedInUser(app);
    const statuses = await raceAndFile(who, (url) =>
      app.request(url, { method: 'PUT', cookie: who.cookie, body: pdf(190 * KB) as BodyInit }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(await usedBytes(who)).toBe(190 * KB);
  });

  it('six concurrent 90 KB PUTs with Content-Length over HTTP against a 300 KB quota: three are filed', async () => {
    const who = await signedInUser(app);
    const server = serve({ fetch: (req, env) => app.fetch(req, env as HttpBindings), port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const statuses = await raceAndFile(who, (url) => {
        const at = new URL(url);
        return fetch(`${origin}${at.pathname}${at.search}`, {
          method: 'PUT',
          headers: { cookie: who.cookie },
          body: pdf(90 * KB),
        });
      });
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(await usedBytes(who)).toBe(270 * KB);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('six concurrent tus creations of 190 KB against a 300 KB quota: one is filed', async () => {
    const who = await signedInUser(app);
    const bytes = pdf(190 * KB);
    const statuses = await raceAndFile(who, async (url) => {
      const created = await tusCreate(who, url, bytes.length);
      if (created.status !== 201) return created;
      return tusPatch(who, created.headers.get('location') as string, 0, bytes);
    });
    expect(statuses.filter((s) => s < 300)).toHaveLength(1);
    expect(await usedBytes(who)).toBe(190 * KB);
  });

  it('a refused upload gives its room back at once', async () => {
    const who = await signedInUser(app);
    const refused = await app.request(await uploadUrl(app, who), {
      method: 'PUT',
      cookie: who.cookie,
      body: program(200 * KB) as BodyInit,
    });
    expect(refused.status).toBe(415);
    const url = await uploadUrl(app, who);
    const accepted = await app.request(url, { method: 'PUT', cookie: who.cookie, body: pdf(250 * KB) as BodyInit });
    expect(accepted.status).toBe(200);
  });

  it('a tus upload holds its room while it may resume, and gives it back when it expires', async () => {
    const who = await signedInUser(app);
    const url = await uploadUrl(app, who);
    const created = await tusCreate(who, url, 200 * KB);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    expect((await tusPatch(who, location, 0, pdf(50 * KB))).status).toBe(204);

    // The unfinished upload's 200 KB are spoken for: 150 KB more do not fit.
    const second = await uploadUrl(app, who);
    const refused = await app.request(second, { method: 'PUT', cookie: who.cookie, body: pdf(150 * KB) as BodyInit });
    expect(refused.status).toBe(413);

    // Its time runs out: the room is free again, and a late PATCH has to fit once more.
    const id = new URL(url).pathname.split('/').pop() as string;
    await app.services.db.upload.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const third = await uploadUrl(app, who);
    expect(
      (await app.request(third, { method: 'PUT', cookie: who.cookie, body: pdf(150 * KB) as BodyInit })).status,
    ).toBe(200);
    const late = await tusPatch(who, location, 50 * KB, pdf(150 * KB));
    expect(late.status).toBe(413);
  });

  it('the cleanup pass releases an expired reservation for good', async () => {
    const who = await signedInUser(app);
    const url = await uploadUrl(app, who);
    expect((await tusCreate(who, url, 280 * KB)).status).toBe(201);
    const blocked = await app.request(await uploadUrl(app, who), {
      method: 'PUT',
      cookie: who.cookie,
      body: pdf(100 * KB) as BodyInit,
    });
    expect(blocked.status).toBe(413);
    await app.storage.cleanup({ now: new Date(Date.now() + 2 * 86_400_000) });
    const fits = await app.request(await uploadUrl(app, who), {
      method: 'PUT',
      cookie: who.cookie,
      body: pdf(100 * KB) as BodyInit,
    });
    expect(fits.status).toBe(200);
  });
});

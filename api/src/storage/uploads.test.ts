import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, signedInUser, testApp } from '../../test/harness.ts';
import { arrivingPut, put, sha256, uploaded, uploadProgress, uploadUrl } from './testing.ts';
import { signUploadToken } from './tokens.ts';
import { countStatements } from '../../test/statements.ts';

let app: TestApp, owner: User, stranger: User;
beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

/** Text of exactly `size` bytes (text has no signature; it passes as valid UTF-8). */
function text(size: number) {
  const line = 'Location scout notes: north entrance, good light after 4 pm.\n';
  return new TextEncoder().encode(line.repeat(Math.ceil(size / line.length)).slice(0, size));
}

async function download(uploadURL: string, who: User = owner) {
  const response = await app.request(new URL(uploadURL).pathname, { cookie: who.cookie });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('POST /api/objects/upload', () => {
  it('answers a signed, short-lived URL and records a pending upload bound to the user', async () => {
    const before = Date.now();
    const response = await app.request('/api/objects/upload', { method: 'POST', cookie: owner.cookie });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { uploadURL: string; maxSize: number; expiresAt: string };
    expect(body.uploadURL).toMatch(/^http:\/\/scoutbase\.test\/objects\/uploads\/[0-9a-f-]{36}\?token=\d+\.[\w-]{43}$/);
    expect(body.maxSize).toBe(50 * 1024 * 1024);
    const id = new URL(body.uploadURL).pathname.split('/').pop() as string;
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ userId: owner.id, status: 'pending', maxSize: 52428800n, objectKey: `uploads/${id}` });
    expect(row.expiresAt.getTime() - before).toBeLessThanOrEqual(15 * 60_000 + 5000);
    expect(row.expiresAt.getTime() - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(Math.abs(row.createdAt.getTime() - before)).toBeLessThan(5000);
  });

  it('checks the quota and records the upload in one statement beside the session look-up', async () => {
    let status = 0;
    const statements = await countStatements(async () => {
      status = (await app.request('/api/objects/upload', { method: 'POST', cookie: owner.cookie })).status;
    });
    expect(status).toBe(200);
    expect(statements).toBe(2);
  });

  it('is refused when signed out', async () => {
    expect((await app.request('/api/objects/upload', { method: 'POST' })).status).toBe(401);
  });
});

describe('POST /api/objects/uploads?count=n (a batch of files)', () => {
  it('answers n signed URLs of their own, recorded in one statement beside the session look-up', async () => {
    let response = new Response();
    const statements = await countStatements(async () => {
      response = await app.request('/api/objects/uploads?count=4', { method: 'POST', cookie: owner.cookie });
    });
    expect(response.status).toBe(200);
    expect(statements).toBe(2);
    const { uploads } = (await response.json()) as {
      uploads: { uploadURL: string; maxSize: number; expiresAt: string }[];
    };
    expect(uploads).toHaveLength(4);
    const ids = uploads.map(({ uploadURL }) => new URL(uploadURL).pathname.split('/').pop() as string);
    expect(new Set(ids).size).toBe(4);
    const rows = await app.database.prisma.upload.findMany({ where: { id: { in: ids } } });
    expect(rows.map((row) => [row.userId, row.status, row.objectKey]).sort()).toEqual(
      ids.map((id) => [owner.id, 'pending', `uploads/${id}`]).sort(),
    );
    for (const [i, { uploadURL, maxSize }] of uploads.entries()) {
      expect(maxSize).toBe(50 * 1024 * 1024);
      const bytes = text(100 + i);
      const { response: sent } = await put(app, owner, bytes, uploadURL);
      expect(sent.status).toBe(200);
      expect(await sent.json()).toMatchObject({ size: 100 + i, checksum: sha256(bytes) });
    }
    // Each URL opens its own upload only.
    const [first, second] = uploads;
    const crossed = new URL(first?.uploadURL as string);
    crossed.pathname = new URL(second?.uploadURL as string).pathname;
    expect((await put(app, owner, 'x', crossed.toString())).response.status).toBe(403);
  });

  it('refuses a count that is not a whole number from 1 to 10', async () => {
    for (const query of ['', '?count=0', '?count=11', '?count=2.5', '?count=two']) {
      const response = await app.request(`/api/objects/uploads${query}`, { method: 'POST', cookie: owner.cookie });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: 'count must be a whole number from 1 to 10.' });
    }
  });

  it('is refused when signed out', async () => {
    expect((await app.request('/api/objects/uploads?count=2', { method: 'POST' })).status).toBe(401);
  });
});

describe('PUT to the upload URL', () => {
  it.each([
    ['1 byte', 1],
    ['256 KB', 256 * 1024],
    ['256 KB + 1 byte', 256 * 1024 + 1],
  ])('round-trips %s with its sha256', async (_label, size) => {
    const bytes = text(size);
    const result = await uploaded(app, owner, bytes);
    expect(result).toMatchObject({ size, checksum: sha256(bytes), mimeType: 'text/plain' });
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: result.uploadId } });
    expect(row).toMatchObject({ status: 'uploaded', size: BigInt(size), checksum: sha256(bytes) });
    const { response, bytes: back } = await download(result.uploadURL);
    expect(response.status).toBe(200);
    expect(sha256(back)).toBe(sha256(bytes));
  });

  it('round-trips 50 MB exactly and refuses 50 MB + 1 byte with 413', async () => {
    const limit = 50 * 1024 * 1024;
    const bytes = text(limit);
    const result = await uploaded(app, owner, bytes);
    expect(result.size).toBe(limit);
    const { bytes: back } = await download(result.uploadURL);
    expect(back.length).toBe(limit);
    expect(sha256(back)).toBe(result.checksum);

    const over = new Uint8Array(limit + 1);
    over.set(bytes);
    over[limit] = 0x0a;
    const { uploadURL, response } = await put(app, owner, over);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toMatch(/^File is larger than 52428800 bytes/);
    const id = new URL(uploadURL).pathname.split('/').pop() as string;
    expect((await app.database.prisma.upload.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    // Nothing of the refused bytes stays on disk.
    const objects = path.join(app.dataDir, 'objects');
    expect(await stat(path.join(objects, 'uploads', id)).catch(() => null)).toBeNull();
    expect(await readdir(path.join(objects, '.tmp'))).toEqual([]);
  }, 120_000);

  it('takes the bytes with two statements beside the session look-up: the upload read with its hold, then its completion', async () => {
    const url = await uploadUrl(app, owner);
    let status = 0;
    const statements = await countStatements(async () => {
      status = (await put(app, owner, text(2000), url)).response.status;
    });
    expect(status).toBe(200);
    expect(statements).toBe(3);
  });

  it('honours a configured MAX_UPLOAD_SIZE to the byte', async () => {
    const small = await testApp({ MAX_UPLOAD_SIZE: '1KB' });
    try {
      const who = await signedInUser(small);
      const { response } = await put(small, who, text(1025));
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({
        message: expect.stringMatching(/^File is larger than 1024 bytes/),
      });
      expect((await put(small, who, text(1024))).response.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('judges the type from the bytes: a renamed program or random binary is refused with 415', async () => {
    const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...randomBytes(200)]);
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, ...randomBytes(300)]);
    for (const program of [elf, exe, new Uint8Array([0xff, 0xfe, 0x00, 0x01, ...randomBytes(500)])]) {
      const { response } = await put(app, owner, program);
      expect(response.status).toBe(415);
      expect(((await response.json()) as { message: string }).message).toMatch(
        /^File type must be one of png, jpg, jpeg, gif, webp, mp4, mov, avi, mkv, pdf, txt, md, doc, docx/,
      );
    }
  });

  it('accepts the spec types by signature: PDF and Markdown', async () => {
    const pdf = await uploaded(app, owner, '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');
    expect(pdf.mimeType).toBe('application/pdf');
    const md = await uploaded(app, owner, '# Call sheet\n\n- Day 1: *warehouse* — 06:00 ✓\n');
    expect(md.mimeType).toBe('text/plain');
  });

  it('refuses an empty body', async () => {
    const { response } = await put(app, owner, new Uint8Array());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: 'File is empty.' });
  });

  it('answers 403 for a forged or expired token, and for someone else’s URL', async () => {
    const url = new URL(await uploadUrl(app, owner));
    const forged = new URL(url);
    forged.searchParams.set('token', `${Math.floor(Date.now() / 1000) + 600}.${'A'.repeat(43)}`);
    expect((await put(app, owner, 'hello', forged.toString())).response.status).toBe(403);

    const noToken = new URL(url);
    noToken.search = '';
    expect((await put(app, owner, 'hello', noToken.toString())).response.status).toBe(403);

    const id = url.pathname.split('/').pop() as string;
    const expired = new URL(url);
    const token = signUploadToken(
      app.storage.deps.signingKey,
      { uploadId: id, userId: owner.id, maxSize: 52428800n },
      new Date(Date.now() - 1000),
    );
    expired.searchParams.set('token', token);
    const expiredResponse = (await put(app, owner, 'hello', expired.toString())).response;
    expect(expiredResponse.status).toBe(403);
    expect(await expiredResponse.json()).toMatchObject({ message: expect.stringMatching(/invalid or has expired/) });

    // A valid URL is still only the owner's: a stranger with it gets the same refusal.
    expect((await put(app, stranger, 'hello', url.toString())).response.status).toBe(403);
    // A URL made for another upload does not open this one.
    const other = new URL(await uploadUrl(app, owner));
    other.pathname = url.pathname;
    expect((await put(app, owner, 'hello', other.toString())).response.status).toBe(403);
    // Signed out: 401.
    expect((await app.request(url.toString(), { method: 'PUT', body: 'hello' })).status).toBe(401);

    expect((await app.database.prisma.upload.findUniqueOrThrow({ where: { id } })).status).toBe('pending');
    expect((await put(app, owner, 'hello', url.toString())).response.status).toBe(200);
    // Used once: the URL cannot overwrite the bytes.
    const again = (await put(app, owner, 'other bytes', url.toString())).response;
    expect(again.status).toBe(409);
    const { bytes } = await download(url.toString());
    expect(new TextDecoder().decode(bytes)).toBe('hello');
  });

  it('takes the bytes again after a PUT cut off midway, and refuses a second PUT while one is running', async () => {
    const url = await uploadUrl(app, owner);
    const bytes = text(300 * 1024);
    const first = await arrivingPut(app, owner, bytes.subarray(0, 100 * 1024), url);
    // The first PUT is still arriving: a second one to the same URL must wait its turn.
    const second = (await put(app, owner, bytes, url)).response;
    expect(second.status).toBe(409);
    first.end('cut');
    const cut = await first.answer.catch(() => null);
    expect(cut === null || cut.status >= 400).toBe(true);
    expect((await app.database.prisma.upload.findUniqueOrThrow({ where: { id: first.id } })).status).toBe('pending');
    const retried = (await put(app, owner, bytes, url)).response;
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ size: bytes.length, checksum: sha256(bytes) });
  });

  it('answers 403 for a URL with an id that is not an upload', async () => {
    const response = await app.request(`/objects/uploads/not-a-uuid?token=1.${'A'.repeat(43)}`, {
      method: 'PUT',
      cookie: owner.cookie,
      body: 'x',
    });
    expect(response.status).toBe(403);
  });

  it('publishes upload:progress events to the uploader', async () => {
    const progress = uploadProgress(app, owner.id);
    const bytes = text(3000);
    const result = await uploaded(app, owner, bytes);
    const seen = await progress.finished();
    expect(seen.at(-1)).toMatchObject({ uploadId: result.uploadId, received: 3000, total: 3000, status: 'uploaded' });
    expect(seen.map((e) => e.status)).toContain('processing');
  });
});

describe('quota', () => {
  it('refuses uploads past STORAGE_QUOTA with a clear message, counting unfiled uploads', async () => {
    const small = await testApp({ STORAGE_QUOTA: '1KB' });
    try {
      const who = await signedInUser(small);
      expect((await put(small, who, text(600))).response.status).toBe(200);
      const { response } = await put(small, who, text(600));
      expect(response.status).toBe(413);
      const { message } = (await response.json()) as { message: string };
      expect(message).toMatch(/^Storage quota exceeded: 600 Bytes of 1\.00 KB used/);
      const usage = await small.request('/api/storage/usage', { cookie: who.cookie });
      expect(await usage.json()).toEqual({ usedBytes: 600, quotaBytes: 1024 });
      expect((await put(small, who, text(424))).response.status).toBe(200);
      // Full: not even an upload URL.
      const refused = await small.request('/api/objects/upload', { method: 'POST', cookie: who.cookie });
      expect(refused.status).toBe(413);
      expect(await refused.json()).toMatchObject({ message: expect.stringMatching(/^Storage quota exceeded/) });
      const batch = await small.request('/api/objects/uploads?count=3', { method: 'POST', cookie: who.cookie });
      expect(batch.status).toBe(413);
      expect(await batch.json()).toMatchObject({ message: expect.stringMatching(/^Storage quota exceeded/) });
    } finally {
      await small.close();
    }
  });
});

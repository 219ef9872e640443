import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type HttpBindings } from '@hono/node-server';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, sendBody } from '../../test/harness.ts';
import { sha256, uploadProgress, uploadUrl } from './testing.ts';

let app: TestApp, owner: User, stranger: User;
beforeAll(async () => {
  [app, owner, stranger] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

const TUS = { 'tus-resumable': '1.0.0' };

async function create(who: User, uploadURL: string, length: number) {
  return app.request('/api/objects/tus', {
    method: 'POST',
    cookie: who.cookie,
    headers: {
      ...TUS,
      'upload-length': String(length),
      // A hostile name changes nothing: tus files are named after our upload ids only.
      'upload-metadata': `uploadURL ${Buffer.from(uploadURL).toString('base64')},filename ${Buffer.from('../../../escape.mov').toString('base64')}`,
    },
  });
}

function patch(who: User, location: string, offset: number, body: BodyInit) {
  return app.request(location, {
    method: 'PATCH',
    cookie: who.cookie,
    headers: { ...TUS, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
    body,
    duplex: 'half',
  } as RequestInit);
}

async function offsetOf(who: User, location: string) {
  const head = await app.request(location, { method: 'HEAD', cookie: who.cookie, headers: TUS });
  return { status: head.status, offset: Number(head.headers.get('upload-offset')) };
}

/** A body that sends `bytes` and then breaks, as a dropped connection does. */
function cutOffAfter(bytes: Uint8Array) {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at < bytes.length) {
        controller.enqueue(bytes.slice(at, at + 64 * 1024));
        at += 64 * 1024;
        return;
      }
      // The line drops a moment after the last bytes went out (they reached the server).
      await new Promise((resolve) => setTimeout(resolve, 200));
      controller.error(new Error('connection lost'));
    },
  });
}

/** A PDF-looking file of `size` bytes (a signature the type check accepts). */
function pdf(size: number) {
  const bytes = randomBytes(size);
  bytes.set(Buffer.from('%PDF-1.7\n'));
  return new Uint8Array(bytes);
}

describe('tus resumable uploads', () => {
  it('resumes an upload cut off midway without resending what arrived, then files it', async () => {
    const bytes = pdf(3 * 1024 * 1024 + 17);
    const uploadURL = await uploadUrl(app, owner);
    const created = await create(owner, uploadURL, bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location') as string;
    const id = new URL(uploadURL).pathname.split('/').pop();
    expect(location).toBe(`/api/objects/tus/${id}`);

    const progress = uploadProgress(app, owner.id);

    const firstPart = bytes.subarray(0, 1024 * 1024 + 5);
    const cut = await patch(owner, location, 0, cutOffAfter(firstPart)).catch(() => null);
    expect(cut === null || cut.status >= 400).toBe(true);

    const { status, offset } = await offsetOf(owner, location);
    expect(status).toBe(200);
    expect(offset).toBe(firstPart.length);

    // A stranger can neither see nor continue it.
    expect((await offsetOf(stranger, location)).status).toBe(404);
    expect((await patch(stranger, location, offset, bytes.subarray(offset))).status).toBe(404);

    const rest = await patch(owner, location, offset, bytes.subarray(offset));
    // tus 1.0: the last PATCH is a 204 like any other; what the server made of the bytes comes as headers.
    expect(rest.status).toBe(204);
    expect(rest.headers.get('upload-offset')).toBe(String(bytes.length));
    expect(rest.headers.get('x-upload-checksum')).toBe(sha256(bytes));
    expect(rest.headers.get('x-upload-mime-type')).toBe('application/pdf');
    const events = await progress.finished();
    expect(events.at(-1)).toMatchObject({ status: 'uploaded', received: bytes.length });

    const filed = await sendBody(app, owner.cookie, 'POST', '/api/files', {
      name: 'clip.pdf',
      originalName: 'clip.pdf',
      objectUrl: uploadURL,
    });
    expect(filed.status).toBe(201);
    const served = await app.request(`/objects/uploads/${id}`, { cookie: owner.cookie });
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    // Nothing of the tus bookkeeping stays behind, and nothing was written outside the data directory.
    expect(await readdir(path.join(app.dataDir, 'tus'))).toEqual([]);
    expect(await readdir(path.dirname(app.dataDir))).not.toContain('escape.mov');
    expect(await readdir(app.dataDir)).not.toContain('escape.mov');
  });

  it('refuses a creation with someone else’s upload URL, a forged one, or too many bytes', async () => {
    const ownersUrl = await uploadUrl(app, owner);
    expect((await create(stranger, ownersUrl, 100)).status).toBe(403);
    const forged = new URL(ownersUrl);
    forged.searchParams.set('token', `9999999999.${'A'.repeat(43)}`);
    expect((await create(owner, forged.toString(), 100)).status).toBe(403);
    const tooBig = await create(owner, ownersUrl, 50 * 1024 * 1024 + 1);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toHaveProperty('message');
    expect((await app.request('/api/objects/tus', { method: 'POST', headers: TUS })).status).toBe(401);
  });

  it('refuses the wrong type once the bytes are in', async () => {
    const program = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...randomBytes(2000)]);
    const uploadURL = await uploadUrl(app, owner);
    const location = (await create(owner, uploadURL, program.length)).headers.get('location') as string;
    const response = await patch(owner, location, 0, program);
    expect(response.status).toBe(415);
    expect(((await response.json()) as { message: string }).message).toMatch(/^File type must be one of/);
  });

  it('cleans up an abandoned upload after the grace period', async () => {
    const bytes = pdf(600 * 1024);
    const uploadURL = await uploadUrl(app, owner);
    const id = new URL(uploadURL).pathname.split('/').pop() as string;
    const location = (await create(owner, uploadURL, bytes.length)).headers.get('location') as string;
    await patch(owner, location, 0, cutOffAfter(bytes.subarray(0, 200 * 1024))).catch(() => null);
    expect((await offsetOf(owner, location)).offset).toBe(200 * 1024);
    expect(await readdir(path.join(app.dataDir, 'tus'))).toEqual(expect.arrayContaining([id, `${id}.json`]));

    await app.storage.cleanup({ now: new Date(Date.now() + 2 * 86_400_000) });
    expect(await readdir(path.join(app.dataDir, 'tus'))).not.toContain(id);
    expect(await app.database.prisma.upload.count({ where: { id } })).toBe(0);
    expect((await offsetOf(owner, location)).status).toBe(404);
  });

  it('works with tus-js-client over HTTP, using the tusEndpoint the upload URL comes with', async () => {
    const server = serve({ fetch: (req, env) => app.fetch(req, env as HttpBindings), port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const answer = await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie: owner.cookie } });
      const { uploadURL, tusEndpoint } = (await answer.json()) as { uploadURL: string; tusEndpoint: string };
      expect(tusEndpoint).toBe(`${origin}/api/objects/tus?uploadURL=${encodeURIComponent(uploadURL)}`);
      const bytes = Buffer.from(pdf(2 * 1024 * 1024 + 3));
      const progress: number[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(bytes, {
          endpoint: tusEndpoint,
          chunkSize: 512 * 1024,
          headers: { cookie: owner.cookie },
          metadata: { filename: 'scout.pdf', filetype: 'application/pdf' },
          onProgress: (sent) => progress.push(sent),
          onError: reject,
          onSuccess: () => resolve(upload.url as string),
        });
        upload.start();
      });
      expect(new URL(url).pathname).toBe(`/api/objects/tus/${new URL(uploadURL).pathname.split('/').pop()}`);
      expect(progress.at(-1)).toBe(bytes.length);
      const served = await fetch(`${origin}${new URL(uploadURL).pathname}`, { headers: { cookie: owner.cookie } });
      expect(served.status).toBe(200);
      expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

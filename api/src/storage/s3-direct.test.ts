import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser as User, sendBody, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { startBucket, type TestBucket } from '../../test/s3.ts';
import type { S3ObjectStore } from '../infra/objects/s3.ts';
import { type DirectUploadResult, S3_UPLOADS_URL, type S3UploadPlan, type S3UploadState } from './contract.ts';
import { PART_SIZE } from './s3-direct.ts';
import { pageSources } from '../app.ts';
import { readConfig } from '../config.ts';
import { s3Upload, S3UploadRefused } from '../../../web/src/uploads/s3.ts';
import { processed, sha256, uploaded } from './testing.ts';

// Direct uploads with S3 on: the browser's steps against a real S3-protocol server (s3rver on
// loopback): presigned URLs from the app, bytes PUT straight to the bucket, completion checked by
// the app exactly as a PUT to it.

let bucket: TestBucket;
let app: TestApp;
let owner: User;
let stranger: User;
let store: S3ObjectStore;

async function photo(width = 640) {
  return new Uint8Array(
    await sharp({ create: { width, height: 400, channels: 3, background: '#6b4a82' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Scoutcam', Model: 'S2' } })
      .toBuffer(),
  );
}

async function plan(who: User, size: number, contentType?: string) {
  const response = await sendBody(app, who.cookie, 'POST', S3_UPLOADS_URL, { size, contentType });
  return { response, plan: (response.status === 200 ? await response.json() : null) as S3UploadPlan };
}

function complete(who: User, uploadId: string) {
  return app.request(`${S3_UPLOADS_URL}/${uploadId}/complete`, { method: 'POST', cookie: who.cookie });
}

async function bucketKeys(uploadId: string) {
  const keys: string[] = [];
  for await (const key of store.list(uploadId ? `uploads/${uploadId}` : 'uploads')) keys.push(key);
  return keys.sort();
}

/**
 * Just enough XMLHttpRequest for web/src/uploads/s3.ts, made of fetch. Like a browser's, it sends a
 * Blob with its Content-Length (part of a presigned PUT's signature) and reports progress.
 */
class BlobXMLHttpRequest {
  status = 0;
  statusText = '';
  private method = 'GET';
  private url = '';
  private readonly headers = new Headers();
  private readonly listeners = new Map<string, ((event: { loaded: number }) => void)[]>();
  private readonly controller = new AbortController();
  readonly upload = {
    addEventListener: (type: string, listener: (event: { loaded: number }) => void) =>
      this.addEventListener(`upload:${type}`, listener),
  };
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value);
  }
  addEventListener(type: string, listener: (event: { loaded: number }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  abort() {
    this.controller.abort();
  }
  private emit(type: string, loaded = 0) {
    for (const listener of this.listeners.get(type) ?? []) listener({ loaded });
  }
  send(body: Blob) {
    fetch(this.url, { method: this.method, body, headers: this.headers, signal: this.controller.signal })
      .then(async (response) => {
        this.status = response.status;
        this.statusText = await response.text();
        this.emit('upload:progress', body.size);
        this.emit('load');
      })
      .catch(() => this.emit(this.controller.signal.aborted ? 'abort' : 'error'));
  }
}

beforeAll(async () => {
  bucket = await startBucket();
  app = await testApp({ ...bucket.env, S3_PREFIX: 'lib', MAX_UPLOAD_SIZE: '40MB' });
  store = app.storage.store as S3ObjectStore;
  owner = await signedInUser(app);
  stranger = await signedInUser(app);
});
afterAll(async () => {
  await app?.close();
  await bucket?.close();
});

describe('direct uploads to an S3 bucket', () => {
  it('tells the web app that uploads go to the bucket', async () => {
    expect(app.storage.store.kind).toBe('s3');
    const response = await app.request('/api/storage/config', { cookie: owner.cookie });
    expect(await response.json()).toEqual({ backend: 's3', uploadthingUrl: null, maxUploadSize: 40 * 1024 * 1024 });
  });

  it("lets the pages connect to the bucket's origin (content security policy), and nowhere else", () => {
    const sources = (env: Record<string, string>) => pageSources(readConfig({ S3_BUCKET: 'lib', ...env })).connect;
    expect(sources({ S3_ENDPOINT: 'http://minio.internal:9000', S3_FORCE_PATH_STYLE: 'true' })).toEqual([
      'http://minio.internal:9000',
    ]);
    expect(sources({ S3_ENDPOINT: 'https://r2.example.com/' })).toEqual(['https://lib.r2.example.com']);
    expect(sources({ S3_REGION: 'eu-west-1' })).toEqual([
      'https://lib.s3.eu-west-1.amazonaws.com',
      'https://s3.eu-west-1.amazonaws.com',
    ]);
    expect(pageSources(readConfig({})).connect).toEqual([]);
  });

  it('a photo goes by one presigned PUT; the server checks it, makes thumbnails in the bucket, serves ranges', async () => {
    const bytes = await photo();
    const { response, plan: target } = await plan(owner, bytes.length, 'image/jpeg');
    expect(response.status).toBe(200);
    expect(target.multipart).toBeUndefined();
    const put = target.put;
    if (!put) throw new Error('expected a single PUT');
    expect(new URL(put.url).origin).toBe(bucket.endpoint);
    // The bytes go to the bucket, not to us.
    const sent = await fetch(put.url, { method: 'PUT', body: bytes, headers: { 'content-type': put.contentType } });
    expect(sent.status).toBe(200);

    const done = await complete(owner, target.uploadId);
    expect(done.status).toBe(200);
    const result = (await done.json()) as DirectUploadResult;
    expect(result).toMatchObject({ ok: true, size: bytes.length, mimeType: 'image/jpeg', uploadId: target.uploadId });
    const row = await processed(app, target.uploadId);
    expect(row).toMatchObject({ status: 'uploaded', checksum: sha256(bytes), size: BigInt(bytes.length) });
    expect((row.metadata as { image?: object }).image).toMatchObject({ width: 640, height: 400 });
    expect(await bucketKeys(target.uploadId)).toEqual([
      `uploads/${target.uploadId}`,
      `uploads/${target.uploadId}.grid.webp`,
      `uploads/${target.uploadId}.grid2x.webp`,
      `uploads/${target.uploadId}.preview.webp`,
    ]);

    const filed = await sendBody(app, owner.cookie, 'POST', '/api/files', {
      name: 'stairwell.jpg',
      objectUrl: target.uploadURL,
      folderId: null,
    });
    expect(filed.status).toBe(201);
    const objectPath = `/objects/uploads/${target.uploadId}`;
    const grid = await app.request(`${objectPath}?variant=grid`, { cookie: owner.cookie });
    expect(grid.status).toBe(200);
    expect(grid.headers.get('content-type')).toBe('image/webp');
    const part = await app.request(objectPath, { cookie: owner.cookie, headers: { range: 'bytes=2-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-11/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(2, 12));
    // Same access rules as ever: a stranger gets a plain 404.
    expect((await app.request(objectPath, { cookie: stranger.cookie })).status).toBe(404);
  });

  it('bytes PUT to the server (imports, scripts) are streamed into the bucket as well', async () => {
    const result = await uploaded(app, owner, 'Location notes: loading bay on the north side.\n');
    expect(await bucketKeys(result.uploadId)).toEqual([`uploads/${result.uploadId}`]);
    expect(app.storage.deps.scratchDir).not.toContain('objects');
    const back = await app.request(result.objectPath, { cookie: owner.cookie });
    expect(await back.text()).toBe('Location notes: loading bay on the north side.\n');
  });

  it('a large file goes in presigned parts; a part cut off is listed missing, sent again, and the upload completes', async () => {
    const size = 2 * PART_SIZE + 4321;
    const text = new Uint8Array(
      Buffer.from(
        randomBytes(size / 2 + 1)
          .toString('hex')
          .slice(0, size),
      ),
    );
    const { plan: target } = await plan(owner, size, 'text/plain');
    const multipart = target.multipart;
    if (!multipart) throw new Error('expected a multipart upload');
    expect(multipart.parts.map((p) => [p.partNumber, p.size])).toEqual([
      [1, PART_SIZE],
      [2, PART_SIZE],
      [3, 4321],
    ]);
    const slice = (n: number) => text.subarray((n - 1) * PART_SIZE, Math.min(size, n * PART_SIZE));
    for (const part of multipart.parts.filter((p) => p.partNumber !== 2)) {
      expect((await fetch(part.url, { method: 'PUT', body: slice(part.partNumber) })).status).toBe(200);
    }
    // Part 2 breaks off after a few bytes.
    const cut = new AbortController();
    const partial = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(slice(2).subarray(0, 4096));
        setTimeout(() => cut.abort(), 50);
      },
    });
    await expect(
      fetch(
        multipart.parts[1]?.url as string,
        {
          method: 'PUT',
          body: partial,
          signal: cut.signal,
          duplex: 'half',
        } as RequestInit,
      ),
    ).rejects.toThrow();

    const early = await complete(owner, target.uploadId);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { message: string }).message).toMatch(/Parts 2 of this upload have not arrived/);

    // The browser (after a reload, say) asks what is left.
    const stateResponse = await app.request(`${S3_UPLOADS_URL}/${target.uploadId}`, { cookie: owner.cookie });
    expect(stateResponse.status).toBe(200);
    const state = (await stateResponse.json()) as S3UploadState;
    expect(state.multipart?.done).toEqual([1, 3]);
    expect(state.multipart?.parts.map((p) => p.partNumber)).toEqual([2]);
    const again = state.multipart?.parts[0];
    if (!again) throw new Error('no URL for the missing part');
    expect((await fetch(again.url, { method: 'PUT', body: slice(2) })).status).toBe(200);

    const done = await complete(owner, target.uploadId);
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ ok: true, size, mimeType: 'text/plain' });
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: target.uploadId } });
    expect(row.checksum).toBe(sha256(text));
    expect(await store.stat(`uploads/${target.uploadId}`)).toEqual({ size });
  });

  it('a multipart upload the bucket dropped (lifecycle rule) ends with a 409 saying to start again', async () => {
    const { plan: target } = await plan(owner, PART_SIZE + 10, 'text/plain');
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: target.uploadId } });
    await store.abortMultipart(row.objectKey, (row.metadata as { s3MultipartId: string }).s3MultipartId);
    const state = await app.request(`${S3_UPLOADS_URL}/${target.uploadId}`, { cookie: owner.cookie });
    expect(state.status).toBe(409);
    expect(await state.json()).toMatchObject({ message: 'The bucket no longer holds this upload; start it again.' });
    const after = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: target.uploadId } });
    expect(after).toMatchObject({ status: 'released', reservedBytes: 0n });
  });

  it('a refused file (not an accepted type) is deleted from the bucket and cannot be filed', async () => {
    const program = new Uint8Array(Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), randomBytes(2000)]));
    const { plan: target } = await plan(owner, program.length, 'image/png');
    const put = target.put;
    if (!put) throw new Error('expected a single PUT');
    await fetch(put.url, { method: 'PUT', body: program, headers: { 'content-type': put.contentType } });
    expect(await bucketKeys(target.uploadId)).toEqual([`uploads/${target.uploadId}`]);

    const done = await complete(owner, target.uploadId);
    expect(done.status).toBe(415);
    expect(((await done.json()) as { message: string }).message).toMatch(/File type must be one of/);
    expect(await bucketKeys(target.uploadId)).toEqual([]);
    const filed = await sendBody(app, owner.cookie, 'POST', '/api/files', {
      name: 'not-a-photo.png',
      objectUrl: target.uploadURL,
      folderId: null,
    });
    expect(filed.status).toBe(400);
  });

  it('other bytes than the signed length never land; a bucket that let them in has them refused and deleted', async () => {
    const { plan: target } = await plan(owner, 10, 'text/plain');
    const put = target.put;
    if (!put) throw new Error('expected a single PUT');
    const longer = await fetch(put.url, {
      method: 'PUT',
      body: 'twenty bytes of text',
      headers: { 'content-type': 'text/plain' },
    });
    expect(longer.status).toBe(403);
    expect(await bucketKeys(target.uploadId)).toEqual([]);
    // A server that does not hold PUTs to the signed length: the completion check still does.
    await store.put(`uploads/${target.uploadId}`, Readable.from([Buffer.from('twenty bytes of text')]));
    const done = await complete(owner, target.uploadId);
    expect(done.status).toBe(400);
    expect(((await done.json()) as { message: string }).message).toBe(
      'The bucket received 20 bytes, not the 10 announced.',
    );
    expect(await bucketKeys(target.uploadId)).toEqual([]);
  });

  it('refuses bad requests with a message: no session, no size, too large, completing before sending', async () => {
    const anonymous = await sendBody(app, undefined, 'POST', S3_UPLOADS_URL, { size: 10 });
    expect(anonymous.status).toBe(401);
    const noSize = await plan(owner, undefined as unknown as number);
    expect(noSize.response.status).toBe(400);
    expect(await noSize.response.json()).toMatchObject({ message: 'size must be the file size in bytes' });
    const huge = await plan(owner, 41 * 1024 * 1024);
    expect(huge.response.status).toBe(413);
    const { plan: target } = await plan(owner, 10, 'text/plain');
    const early = await complete(owner, target.uploadId);
    expect(early.status).toBe(409);
    // The upload stays open: the bytes may still come.
    expect((await app.database.prisma.upload.findUniqueOrThrow({ where: { id: target.uploadId } })).status).toBe(
      'pending',
    );
  });

  it("someone else's upload is a 404 for every step", async () => {
    const { plan: target } = await plan(owner, 10, 'text/plain');
    expect((await app.request(`${S3_UPLOADS_URL}/${target.uploadId}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await complete(stranger, target.uploadId)).status).toBe(404);
    expect((await app.request(`${S3_UPLOADS_URL}/not-an-id`, { cookie: owner.cookie })).status).toBe(404);
  });

  it('holds the announced size in the quota until the upload is done', async () => {
    const small = await testApp({ ...bucket.env, S3_PREFIX: 'quota', STORAGE_QUOTA: '20KB' });
    try {
      const who = await signedInUser(small);
      const first = await sendBody(small, who.cookie, 'POST', S3_UPLOADS_URL, { size: 15 * 1024 });
      expect(first.status).toBe(200);
      const second = await sendBody(small, who.cookie, 'POST', S3_UPLOADS_URL, { size: 15 * 1024 });
      expect(second.status).toBe(413);
      expect(((await second.json()) as { message: string }).message).toMatch(/Storage quota exceeded/);
    } finally {
      await small.close();
    }
  });

  it('the cleanup pass removes objects whose upload row is gone, after the grace period, and nothing else', async () => {
    const orphan = '0b6f1c3e-7a51-4d2e-9c1b-5e8f2a4d6c71';
    await store.put(`uploads/${orphan}`, Readable.from([Buffer.from('left behind')]));
    await store.put(`uploads/${orphan}.grid.webp`, Readable.from([Buffer.from('thumb')]));
    const kept = await bucketKeys('');
    expect(kept.length).toBeGreaterThan(2);
    // Within the grace period: left alone.
    await app.storage.cleanup();
    expect(await bucketKeys(orphan)).toHaveLength(2);
    const report = await app.storage.cleanup({ now: new Date(Date.now() + 3 * 24 * 3600 * 1000) });
    expect(report.removed).toBeGreaterThanOrEqual(2);
    expect(await bucketKeys(orphan)).toEqual([]);
    // Every object of a filed upload is still there.
    const filed = await app.database.prisma.upload.findMany({ where: { status: 'claimed' } });
    expect(filed.length).toBeGreaterThan(0);
    for (const upload of filed) expect(await store.stat(upload.objectKey)).not.toBeNull();
  });

  describe("the web app's uploader (web/src/uploads/s3.ts)", () => {
    const previousXhr = globalThis.XMLHttpRequest;
    beforeAll(() => {
      globalThis.XMLHttpRequest = BlobXMLHttpRequest as unknown as typeof XMLHttpRequest;
    });
    afterAll(() => {
      globalThis.XMLHttpRequest = previousXhr;
    });

    /** The web app's JSON calls, as lib/http.ts makes them, to this app with the owner's session. */
    const request = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const response = await sendBody(app, owner.cookie, method, url, body === undefined ? undefined : body);
      const text = await response.text();
      if (!response.ok) throw new Error(`${response.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    };

    it('sends a multipart file to the bucket with progress and files it', async () => {
      const size = PART_SIZE + 1000;
      const file = new File([Buffer.from(randomBytes(size / 2).toString('hex'))], 'script.txt', { type: 'text/plain' });
      const progress: number[] = [];
      const result = await s3Upload(file, (loaded) => progress.push(loaded), undefined, request);
      expect(result).toMatchObject({ ok: true, size, mimeType: 'text/plain' });
      expect(progress.at(-1)).toBe(size);
      if (!result.ok) throw new Error(result.message);
      const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: result.uploadId } });
      expect(row.checksum).toBe(sha256(new Uint8Array(await file.arrayBuffer())));
    });

    it('passes on the words of a refusal', async () => {
      const file = new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 0])], 'run.png', { type: 'image/png' });
      const refused = s3Upload(file, () => {}, undefined, request);
      await expect(refused).rejects.toBeInstanceOf(S3UploadRefused);
      await expect(refused).rejects.toThrow(/File type must be one of/);
    });
  });
});

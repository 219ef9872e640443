import { createHash, createHmac } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { sha256, uploaded } from './testing.ts';

// A local stand-in for the three UploadThing services the server SDK talks to, written from the
// SDK's source (uploadthing/server, @uploadthing/shared): the ingest server takes a multipart PUT
// at a URL the SDK signs with the API key; the API takes POST /v6/deleteFiles with the key in
// x-uploadthing-api-key; the file host serves private files at signed /a/<appId>/<key> URLs.

const API_KEY = 'sk_live_scoutbase_fake_key';
const APP_ID = 'scoutbaseapp';
const TOKEN = Buffer.from(JSON.stringify({ apiKey: API_KEY, appId: APP_ID, regions: ['sea1'] })).toString('base64');

interface Stored {
  bytes: Buffer;
  type: string;
  acl: string | null;
}

class FakeUploadThing {
  readonly files = new Map<string, Stored>();
  readonly calls: string[] = [];
  server: Server;
  port = 0;

  constructor() {
    this.server = createServer((req, res) => {
      this.handle(req)
        .then(({ status, headers = {}, body }) => {
          res.writeHead(status, headers);
          res.end(body);
        })
        .catch((error) => {
          res.writeHead(500);
          res.end(String(error));
        });
    });
  }

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** The SDK signs `url-without-signature` with HMAC-SHA256 of the API key, hex, prefixed. */
  private signedOk(absolute: URL) {
    const signature = absolute.searchParams.get('signature');
    const unsigned = absolute.href.replace(/[?&]signature=[^&]*$/, '');
    const expected = `hmac-sha256=${createHmac('sha256', API_KEY).update(unsigned).digest('hex')}`;
    const expires = Number(absolute.searchParams.get('expires'));
    return signature === expected && expires > Date.now();
  }

  private async handle(
    req: IncomingMessage,
  ): Promise<{ status: number; headers?: Record<string, string>; body?: Buffer | string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    this.calls.push(`${req.method} ${url.pathname}`);

    if (req.method === 'POST' && url.pathname === '/v6/deleteFiles') {
      if (req.headers['x-uploadthing-api-key'] !== API_KEY) return { status: 401, body: '{"error":"Invalid API key"}' };
      const { customIds = [] } = JSON.parse(body.toString()) as { customIds?: string[] };
      let deletedCount = 0;
      for (const id of customIds) if (this.files.delete(id)) deletedCount += 1;
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ success: true, deletedCount }),
      };
    }

    if (req.method === 'PUT') {
      if (!this.signedOk(url)) return { status: 403, body: 'Invalid signature' };
      if (url.searchParams.get('x-ut-identifier') !== APP_ID) return { status: 403, body: 'Wrong app' };
      const form = await new Response(body, {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      }).formData();
      const file = form.get('file') as File;
      const customId = decodeURIComponent(url.searchParams.get('x-ut-custom-id') ?? '');
      const bytes = Buffer.from(await file.arrayBuffer());
      if (bytes.length !== Number(url.searchParams.get('x-ut-file-size')))
        return { status: 400, body: 'Size mismatch' };
      this.files.set(customId, {
        bytes,
        type: decodeURIComponent(url.searchParams.get('x-ut-file-type') ?? ''),
        acl: url.searchParams.get('x-ut-acl'),
      });
      const key = url.pathname.slice(1);
      const ufsUrl = `http://localhost:${this.port}/a/${APP_ID}/${key}`;
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          url: ufsUrl,
          appUrl: ufsUrl,
          ufsUrl,
          fileHash: createHash('md5').update(bytes).digest('hex'),
        }),
      };
    }

    const served = /^\/a\/([^/]+)\/(.+)$/.exec(url.pathname);
    if ((req.method === 'GET' || req.method === 'HEAD') && served) {
      if (served[1] !== APP_ID || !this.signedOk(url)) return { status: 403, body: 'Forbidden' };
      const stored = this.files.get(decodeURIComponent(served[2] as string));
      if (!stored) return { status: 404, body: 'Not found' };
      const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
      const slice = range ? stored.bytes.subarray(Number(range[1]), Number(range[2]) + 1) : stored.bytes;
      return {
        status: range ? 206 : 200,
        headers: { 'content-type': stored.type, 'content-length': String(slice.length) },
        body: req.method === 'HEAD' ? undefined : slice,
      };
    }
    return { status: 404, body: 'Unknown endpoint' };
  }
}

let fake: FakeUploadThing;
let app: TestApp;
let owner: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  fake = new FakeUploadThing();
  await fake.start();
  app = await testApp({ UPLOADTHING_TOKEN: TOKEN }, (config) => ({
    ...config,
    storage: {
      ...config.storage,
      uploadthingEndpoints: {
        apiUrl: `http://127.0.0.1:${fake.port}`,
        ingestUrl: `http://127.0.0.1:${fake.port}`,
        ufsHost: `localhost:${fake.port}`,
        ufsAppIdLocation: 'path',
      },
    },
  }));
  owner = await signedInUser(app);
});
afterAll(async () => {
  await app.close();
  await new Promise((resolve) => fake.server.close(resolve));
});

describe('UploadThing backend', () => {
  it('keeps the bytes and thumbnails at UploadThing as private files, none on local disk', async () => {
    expect(app.storage.store.kind).toBe('uploadthing');
    const answer = (await (
      await app.request('/api/objects/upload', { method: 'POST', cookie: owner.cookie })
    ).json()) as {
      tusEndpoint?: string;
    };
    // Resumable uploads are for the local disk only.
    expect(answer.tusEndpoint).toBeUndefined();

    const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#345678' } })
      .jpeg()
      .toBuffer();
    const result = await uploaded(app, owner, photo);
    expect(result.metadata.thumbnails).toEqual({ grid: true, preview: true });
    const id = result.uploadId;
    expect([...fake.files.keys()].filter((k) => k.includes(id)).sort()).toEqual([
      `uploads~${id}`,
      `uploads~${id}.grid.webp`,
      `uploads~${id}.preview.webp`,
    ]);
    const original = fake.files.get(`uploads~${id}`);
    expect(original?.acl).toBe('private');
    expect(original?.type).toBe('image/jpeg');
    expect(sha256(original?.bytes ?? Buffer.alloc(0))).toBe(sha256(photo));
    expect(await readdir(path.join(app.dataDir, 'objects', 'uploads')).catch(() => [])).toEqual([]);
  });

  it('serves the bytes through our server, ranges included', async () => {
    const text = 'Scout report: loading dock, north side.\n';
    const result = await uploaded(app, owner, text);
    const whole = await app.request(result.objectPath, { cookie: owner.cookie });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(text.length));
    expect(await whole.text()).toBe(text);
    const part = await app.request(result.objectPath, { cookie: owner.cookie, headers: { range: 'bytes=0-11' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('Scout report');
  });

  it('deletes the object and its thumbnails there when the cleanup pass removes them', async () => {
    const photo = await sharp({ create: { width: 500, height: 500, channels: 3, background: '#aa3300' } })
      .png()
      .toBuffer();
    const result = await uploaded(app, owner, photo);
    await app.database.prisma.upload.update({ where: { id: result.uploadId }, data: { status: 'released' } });
    expect(await app.storage.cleanup()).toEqual({ removed: 1, failed: 0 });
    expect([...fake.files.keys()].filter((k) => k.includes(result.uploadId))).toEqual([]);
    expect(fake.calls).toContain('POST /v6/deleteFiles');
  });

  it('the fake refuses what UploadThing refuses: a tampered signature', async () => {
    const response = await fetch(
      `http://127.0.0.1:${fake.port}/abc?expires=${Date.now() + 60_000}&x-ut-identifier=${APP_ID}&signature=hmac-sha256=00`,
      { method: 'PUT', body: 'x' },
    );
    expect(response.status).toBe(403);
  });
});

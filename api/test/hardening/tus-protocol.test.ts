import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve, type HttpBindings } from '@hono/node-server';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadUrl } from '../../src/storage/testing.ts';
import { signedInUser, testApp, type SignedInUser, type TestApp, sendBody } from '../harness.ts';

// Issue 17 item 9, tus part: the resumable upload endpoint speaks tus 1.0 (core protocol and the
// creation, creation-with-upload, creation-defer-length, termination and expiration extensions)
// header by header, and tus-js-client uploads with and without uploadDataDuringCreation.

const MAX = 5 * 1024 * 1024;
let app: TestApp, owner: SignedInUser;
beforeAll(async () => {
  app = await testApp({ MAX_UPLOAD_SIZE: String(MAX) });
  owner = await signedInUser(app);
});
afterAll(() => app.close());

const TUS = { 'tus-resumable': '1.0.0' };
const OCTETS = { 'content-type': 'application/offset+octet-stream' };

function pdf(size: number) {
  const bytes = randomBytes(size);
  bytes.set(Buffer.from('%PDF-1.7\n'));
  return new Uint8Array(bytes);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function create(headers: Record<string, string>, body?: Uint8Array) {
  const uploadURL = await uploadUrl(app, owner);
  const response = await app.request('/api/objects/tus', {
    method: 'POST',
    cookie: owner.cookie,
    headers: { ...TUS, 'upload-metadata': `uploadURL ${b64(uploadURL)},filename ${b64('scout.pdf')}`, ...headers },
    ...(body ? { body: body as BodyInit } : {}),
  });
  return { uploadURL, response, location: response.headers.get('location') };
}

function request(location: string, method: string, headers: Record<string, string> = {}, body?: Uint8Array) {
  return app.request(location, {
    method,
    cookie: owner.cookie,
    headers: { ...TUS, ...headers },
    ...(body ? { body: body as BodyInit } : {}),
  });
}

describe('tus 1.0 protocol, header by header', () => {
  it('OPTIONS answers 204 with Tus-Version, Tus-Extension, Tus-Max-Size and Tus-Resumable', async () => {
    for (const path of ['/api/objects/tus', '/api/objects/tus/00000000-0000-4000-8000-000000000000']) {
      const response = await app.request(path, { method: 'OPTIONS' });
      expect(response.status).toBe(204);
      expect(response.headers.get('tus-version')?.split(',')).toContain('1.0.0');
      expect(response.headers.get('tus-extension')?.split(',')).toEqual(
        expect.arrayContaining(['creation', 'creation-with-upload', 'creation-defer-length', 'termination']),
      );
      expect(response.headers.get('tus-max-size')).toBe(String(MAX));
      expect(response.headers.get('tus-resumable')).toBe('1.0.0');
      expect(await response.text()).toBe('');
    }
  });

  it('refuses requests without Tus-Resumable (412) and unsupported versions (412 with Tus-Version)', async () => {
    const missing = await app.request('/api/objects/tus', {
      method: 'POST',
      cookie: owner.cookie,
      headers: { 'upload-length': '10' },
    });
    expect(missing.status).toBe(412);
    const old = await app.request('/api/objects/tus', {
      method: 'POST',
      cookie: owner.cookie,
      headers: { 'tus-resumable': '0.2.2', 'upload-length': '10' },
    });
    expect(old.status).toBe(412);
    expect(old.headers.get('tus-version')).toContain('1.0.0');
  });

  it('creation: 201 with Location and Tus-Resumable; Upload-Length over Tus-Max-Size is 413', async () => {
    const { response, location } = await create({ 'upload-length': '1000' });
    expect(response.status).toBe(201);
    expect(location).toMatch(/^\/api\/objects\/tus\/[0-9a-f-]{36}$/);
    expect(response.headers.get('tus-resumable')).toBe('1.0.0');
    expect((await create({ 'upload-length': String(MAX + 1) })).response.status).toBe(413);
  });

  it('HEAD: Upload-Offset, Upload-Length, Upload-Metadata, Cache-Control no-store, Upload-Expires', async () => {
    const { location } = await create({ 'upload-length': '1000' });
    const head = await request(location as string, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
    expect(head.headers.get('upload-length')).toBe('1000');
    expect(head.headers.get('upload-metadata')).toContain(`filename ${b64('scout.pdf')}`);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(head.headers.get('tus-resumable')).toBe('1.0.0');
    expect(Date.parse(head.headers.get('upload-expires') as string)).toBeGreaterThan(Date.now());
  });

  it('PATCH: 415 for a wrong Content-Type, 409 for a wrong offset, 204 with the new Upload-Offset', async () => {
    const bytes = pdf(3000);
    const { location } = await create({ 'upload-length': String(bytes.length) });
    const at = location as string;
    for (const type of ['application/octet-stream', 'text/plain', '']) {
      const wrong = await request(at, 'PATCH', { 'upload-offset': '0', 'content-type': type }, bytes.subarray(0, 10));
      expect(wrong.status).toBe(415);
      expect(((await wrong.json()) as { message: string }).message).toMatch(/application\/offset\+octet-stream/);
    }
    const first = await request(at, 'PATCH', { 'upload-offset': '0', ...OCTETS }, bytes.subarray(0, 1000));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('1000');
    expect(first.headers.get('tus-resumable')).toBe('1.0.0');
    expect(Date.parse(first.headers.get('upload-expires') as string)).toBeGreaterThan(Date.now());
    expect((await request(at, 'PATCH', { 'upload-offset': '0', ...OCTETS }, bytes.subarray(0, 10))).status).toBe(409);
  });

  it('the last PATCH answers 204 without a body; HEAD then answers the finished upload', async () => {
    const bytes = pdf(3000);
    const { location, uploadURL } = await create({ 'upload-length': String(bytes.length) });
    const at = location as string;
    await request(at, 'PATCH', { 'upload-offset': '0', ...OCTETS }, bytes.subarray(0, 1000));
    const last = await request(at, 'PATCH', { 'upload-offset': '1000', ...OCTETS }, bytes.subarray(1000));
    expect(last.status).toBe(204);
    expect(await last.text()).toBe('');
    expect(last.headers.get('upload-offset')).toBe(String(bytes.length));
    // What the web app needs next is the upload URL it already holds; the checks' results come as headers.
    expect(last.headers.get('x-upload-checksum')).toBe(sha256(bytes));

    const head = await request(at, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(bytes.length));
    expect(head.headers.get('upload-length')).toBe(String(bytes.length));
    expect(head.headers.get('tus-resumable')).toBe('1.0.0');

    // Filed, it is still a finished upload to its owner; to anyone else it does not exist.
    const filed = await sendBody(app, owner.cookie, 'POST', '/api/files', {
      name: 'scout.pdf',
      originalName: 'scout.pdf',
      objectUrl: uploadURL,
    });
    expect(filed.status).toBe(201);
    expect((await request(at, 'HEAD')).headers.get('upload-offset')).toBe(String(bytes.length));
    const stranger = await signedInUser(app);
    expect((await app.request(at, { method: 'HEAD', cookie: stranger.cookie, headers: TUS })).status).toBe(404);
  });

  it('creation-with-upload: a POST carrying every byte answers 201 with Location and the full offset', async () => {
    const bytes = pdf(2000);
    const { response, location } = await create({ 'upload-length': String(bytes.length), ...OCTETS }, bytes);
    expect(response.status).toBe(201);
    expect(location).toMatch(/^\/api\/objects\/tus\/[0-9a-f-]{36}$/);
    expect(response.headers.get('upload-offset')).toBe(String(bytes.length));
    const head = await request(location as string, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(bytes.length));
  });

  it('creation-with-upload: a POST carrying part of the bytes leaves the rest to PATCH', async () => {
    const bytes = pdf(2000);
    const { response, location } = await create(
      { 'upload-length': String(bytes.length), ...OCTETS },
      bytes.subarray(0, 500),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('upload-offset')).toBe('500');
    const rest = await request(location as string, 'PATCH', { 'upload-offset': '500', ...OCTETS }, bytes.subarray(500));
    expect(rest.status).toBe(204);
  });

  it('creation-defer-length: Upload-Defer-Length until a PATCH tells Upload-Length', async () => {
    const bytes = pdf(2000);
    const { response, location } = await create({ 'upload-defer-length': '1' });
    expect(response.status).toBe(201);
    const at = location as string;
    const head = await request(at, 'HEAD');
    expect(head.headers.get('upload-defer-length')).toBe('1');
    expect(head.headers.get('upload-length')).toBeNull();
    const part = await request(at, 'PATCH', { 'upload-offset': '0', ...OCTETS }, bytes.subarray(0, 700));
    expect(part.status).toBe(204);
    const rest = await request(
      at,
      'PATCH',
      { 'upload-offset': '700', 'upload-length': String(bytes.length), ...OCTETS },
      bytes.subarray(700),
    );
    expect(rest.status).toBe(204);
    expect(rest.headers.get('x-upload-checksum')).toBe(sha256(bytes));
  });

  it('termination: DELETE answers 204, then the upload is gone', async () => {
    const { location } = await create({ 'upload-length': '1000' });
    const deleted = await request(location as string, 'DELETE');
    expect(deleted.status).toBe(204);
    expect(deleted.headers.get('tus-resumable')).toBe('1.0.0');
    expect([404, 410]).toContain((await request(location as string, 'HEAD')).status);
  });
});

describe('tus-js-client against a real server', () => {
  for (const uploadDataDuringCreation of [false, true]) {
    it(`uploads and resumes in chunks with uploadDataDuringCreation ${uploadDataDuringCreation}`, async () => {
      const server = serve({
        fetch: (req, env) => app.fetch(req, env as HttpBindings),
        port: 0,
        hostname: '127.0.0.1',
      });
      await new Promise((resolve) => server.once('listening', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const answer = await fetch(`${origin}/api/objects/upload`, {
          method: 'POST',
          headers: { cookie: owner.cookie },
        });
        const { uploadURL, tusEndpoint } = (await answer.json()) as { uploadURL: string; tusEndpoint: string };
        for (const size of [300 * 1024, 1024 * 1024 + 7]) {
          // The small one finishes in the creation request itself when data goes along with it.
          const bytes = Buffer.from(pdf(size));
          const fresh = size === 300 * 1024 ? tusEndpoint : await freshEndpoint(origin);
          const url = await new Promise<string>((resolve, reject) => {
            const upload = new Upload(bytes, {
              endpoint: fresh,
              chunkSize: 512 * 1024,
              uploadDataDuringCreation,
              headers: { cookie: owner.cookie },
              metadata: { filename: 'scout.pdf', filetype: 'application/pdf' },
              onError: reject,
              onSuccess: () => resolve(upload.url as string),
            });
            upload.start();
          });
          expect(new URL(url).pathname).toMatch(/^\/api\/objects\/tus\/[0-9a-f-]{36}$/);
          const id = new URL(url).pathname.split('/').pop();
          const served = await fetch(`${origin}/objects/uploads/${id}`, { headers: { cookie: owner.cookie } });
          expect(served.status).toBe(200);
          expect(sha256(new Uint8Array(await served.arrayBuffer()))).toBe(sha256(bytes));
        }
        expect(uploadURL).toBeTruthy();
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }
});

async function freshEndpoint(origin: string) {
  const answer = await fetch(`${origin}/api/objects/upload`, { method: 'POST', headers: { cookie: owner.cookie } });
  return ((await answer.json()) as { tusEndpoint: string }).tusEndpoint;
}

import sharp from 'sharp';
import { genUploader } from 'uploadthing/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUploadThing, UT_TOKEN, utSign } from '../../test/fakes/uploadthing.ts';
import { FetchXMLHttpRequest } from '../../test/fakes/xhr.ts';
import { BASE, type SignedInUser as User, signedInUser, testApp, type TestApp, sendBody } from '../../test/harness.ts';
import { processed, sha256 } from './testing.ts';
import { type DirectUploadResult, UPLOADTHING_SLUG } from './contract.ts';
import { UPLOADTHING_PATH, uploadthingConnectSources, type WorkspaceFileRouter } from './uploadthing-routes.ts';

// The whole direct path with UploadThing's own client code: the browser asks our file route for an
// upload URL, sends the bytes to (the fake) UploadThing with progress, UploadThing calls our route
// back with a signed request, the server reads the bytes back and checks them, then POST
// /api/files files the upload.

let fake: FakeUploadThing;
let app: TestApp;
let owner: User;
let stranger: User;
const previousXhr = globalThis.XMLHttpRequest;
const UPLOADTHING_ADDRESS = '203.0.113.9';
const UPLOAD_URLS_PER_ADDRESS = 2;
const UPLOAD_URLS_PER_USER = 8;

/** A request to the app the way a browser on BASE sends it (the session cookie goes along). */
function appFetch(who: User | null): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (url.origin !== BASE) return fetch(input, init);
    // Each request from its own address: only the per-user budget is in play for people.
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    return app.request(`${url.pathname}${url.search}`, { ...init, headers, cookie: who?.cookie });
  };
}

function uploaderFor(who: User | null) {
  return genUploader<WorkspaceFileRouter>({ url: `${BASE}${UPLOADTHING_PATH}`, fetch: appFetch(who) });
}

async function sendDirect(who: User | null, file: File) {
  const progress: number[] = [];
  const [result] = await uploaderFor(who).uploadFiles(UPLOADTHING_SLUG, {
    files: [file],
    onUploadProgress: ({ loaded }) => progress.push(loaded),
  });
  return { result, serverData: result?.serverData as DirectUploadResult, progress };
}

async function photo(width = 800) {
  return new File(
    [
      new Uint8Array(
        await sharp({ create: { width, height: 500, channels: 3, background: '#4a6b82' } })
          .jpeg()
          .withExif({ IFD0: { Make: 'Scoutcam', Model: 'S1' } })
          .toBuffer(),
      ),
    ],
    'loading-dock.jpg',
    { type: 'image/jpeg' },
  );
}

function fileRecord(who: User, objectUrl: string, name = 'loading-dock.jpg') {
  return sendBody(app, who.cookie, 'POST', '/api/files', { name, objectUrl, folderId: null });
}

beforeAll(async () => {
  globalThis.XMLHttpRequest = FetchXMLHttpRequest as unknown as typeof XMLHttpRequest;
  fake = new FakeUploadThing((url, init) => {
    const target = new URL(url);
    // UploadThing calls back from its own few addresses, many times over.
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', UPLOADTHING_ADDRESS);
    return app.request(`${target.pathname}${target.search}`, { ...init, headers });
  });
  await fake.start();
  app = await testApp(
    { UPLOADTHING_TOKEN: UT_TOKEN, MAX_UPLOAD_SIZE: '2MB', TRUST_PROXY: '1', RATE_LIMITS: 'true' },
    (config) => ({
      ...fake.appConfig(config),
      rateLimits: config.rateLimits && {
        ...config.rateLimits,
        signUp: { perAddress: { limit: 1000, windowSeconds: 60 } },
        // Tight enough that counting UploadThing's callbacks (one address) would refuse them.
        uploadUrls: {
          perAddress: { limit: UPLOAD_URLS_PER_ADDRESS, windowSeconds: 600 },
          perUser: { limit: UPLOAD_URLS_PER_USER, windowSeconds: 600 },
        },
      },
    }),
  );
  owner = await signedInUser(app);
  stranger = await signedInUser(app);
});
afterAll(async () => {
  globalThis.XMLHttpRequest = previousXhr;
  await app?.close();
  await fake?.stop();
});

describe('direct uploads to UploadThing', () => {
  it('tells the web app that uploads go to UploadThing', async () => {
    const response = await app.request('/api/storage/config', { cookie: owner.cookie });
    expect(await response.json()).toEqual({
      backend: 'uploadthing',
      uploadthingUrl: UPLOADTHING_PATH,
      maxUploadSize: 2 * 1024 * 1024,
    });
  });

  it('a signed-in user uploads a JPEG; after the checks and its processing POST /api/files files it with thumbnails', async () => {
    const file = await photo();
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { result, serverData, progress } = await sendDirect(owner, file);

    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBeGreaterThanOrEqual(file.size);
    expect(serverData).toMatchObject({ ok: true, size: file.size, mimeType: 'image/jpeg' });
    if (!serverData.ok) throw new Error(serverData.message);
    expect(result?.customId).toBe(`uploads~${serverData.uploadId}`);

    // Its thumbnails and EXIF facts come from the processing job, read back from UploadThing.
    const row = await processed(app, serverData.uploadId);
    expect(row).toMatchObject({
      userId: owner.id,
      status: 'uploaded',
      checksum: sha256(bytes),
      size: BigInt(file.size),
    });
    expect((row.metadata as { image?: { camera?: string } }).image).toMatchObject({ width: 800, height: 500 });
    expect([...fake.files.keys()].filter((k) => k.includes(serverData.uploadId)).sort()).toEqual([
      `uploads~${serverData.uploadId}`,
      `uploads~${serverData.uploadId}.grid.webp`,
      `uploads~${serverData.uploadId}.grid2x.webp`,
      `uploads~${serverData.uploadId}.preview.webp`,
    ]);

    const created = await fileRecord(owner, serverData.uploadURL);
    expect(created.status).toBe(201);
    const record = (await created.json()) as { objectPath: string; checksum: string; mimeType: string };
    expect(record).toMatchObject({ objectPath: serverData.objectPath, mimeType: 'image/jpeg' });
    const stored = await app.database.prisma.file.findFirstOrThrow({ where: { objectPath: serverData.objectPath } });
    expect(stored.checksum).toBe(sha256(bytes));

    const grid = await app.request(`${serverData.objectPath}?variant=grid`, { cookie: owner.cookie });
    expect(grid.status).toBe(200);
    expect(grid.headers.get('content-type')).toBe('image/webp');
    const back = await app.request(serverData.objectPath, { cookie: owner.cookie });
    expect(sha256(new Uint8Array(await back.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('answers a repeated callback as the first, without checking or deleting anything again', async () => {
    const { serverData } = await sendDirect(owner, await photo(250));
    if (!serverData.ok) throw new Error(serverData.message);
    const callback = fake.lastCallback;
    if (!callback) throw new Error('no callback was sent');
    const key = (JSON.parse(callback.body) as { file: { key: string } }).file.key;
    fake.callbackResults.delete(key);
    const url = new URL(callback.url);
    const again = await app.request(`${url.pathname}${url.search}`, {
      method: 'POST',
      headers: callback.headers,
      body: callback.body,
    });
    expect(again.status).toBe(200);
    expect(fake.callbackResults.get(key)).toEqual(serverData);
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: serverData.uploadId } });
    expect(row.status).toBe('uploaded');
    expect(fake.files.has(`uploads~${serverData.uploadId}`)).toBe(true);
  });

  it('another user cannot claim the upload', async () => {
    const { serverData } = await sendDirect(owner, await photo(300));
    if (!serverData.ok) throw new Error(serverData.message);
    const stolen = await fileRecord(stranger, serverData.uploadURL, 'mine.jpg');
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ message: 'objectUrl is not an upload URL of yours.' });
    expect((await fileRecord(owner, serverData.uploadURL)).status).toBe(201);
  });

  it('refuses to hand out an upload URL without a session', async () => {
    const before = await app.database.prisma.upload.count();
    await expect(sendDirect(null, await photo(200))).rejects.toThrow();
    const direct = await app.request(`${UPLOADTHING_PATH}?actionType=upload&slug=${UPLOADTHING_SLUG}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ files: [{ name: 'a.jpg', size: 10, type: 'image/jpeg' }], input: null }),
    });
    expect(direct.status).toBe(401);
    expect(await app.database.prisma.upload.count()).toBe(before);
  });

  it('ignores a callback that UploadThing did not sign', async () => {
    const upload = await app.database.prisma.upload.create({
      data: {
        userId: owner.id,
        objectKey: 'uploads/00000000-0000-4000-8000-000000000001',
        id: '00000000-0000-4000-8000-000000000001',
        maxSize: 10n,
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const payload = JSON.stringify({
      status: 'uploaded',
      file: {
        name: 'x.jpg',
        size: 3,
        type: 'image/jpeg',
        customId: `uploads~${upload.id}`,
        key: 'k',
        url: 'u',
        appUrl: 'u',
        ufsUrl: 'u',
        fileHash: 'h',
      },
      origin: fake.origin,
      metadata: { userId: owner.id, uploadId: upload.id },
    });
    const response = await app.request(`${UPLOADTHING_PATH}?slug=${UPLOADTHING_SLUG}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'uploadthing-hook': 'callback',
        'x-uploadthing-signature': utSign(payload, 'sk_live_someone_else'),
      },
      body: payload,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Invalid signature' });
    const row = await app.database.prisma.upload.findUniqueOrThrow({ where: { id: upload.id } });
    expect(row.status).toBe('pending');
  });

  it('refuses an executable renamed .jpg after reading it back, and deletes its bytes', async () => {
    const program = new Uint8Array(4096);
    program.set([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]);
    const { serverData } = await sendDirect(owner, new File([program], 'sunset.jpg', { type: 'image/jpeg' }));
    expect(serverData).toMatchObject({ ok: false, status: 415 });
    if (serverData.ok) throw new Error('accepted');
    expect(serverData.message).toMatch(/^File type must be one of png, jpg.*; this file is elf\.$/);

    const refused = await app.database.prisma.upload.findFirstOrThrow({
      where: { userId: owner.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(refused.status).toBe('released');
    expect([...fake.files.keys()].filter((k) => k.includes(refused.id))).toEqual([]);
    const claim = await fileRecord(owner, `/objects/uploads/${refused.id}`, 'sunset.jpg');
    expect(claim.status).toBe(400);
  });

  it('refuses files over MAX_UPLOAD_SIZE and past the quota before any byte is sent', async () => {
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'clip.mp4', { type: 'video/mp4' });
    await expect(sendDirect(owner, big)).rejects.toThrow('File is larger than 2097152 bytes (the limit is 2.00 MB).');

    const full = await signedInUser(app);
    await app.database.prisma.upload.create({
      data: {
        userId: full.id,
        objectKey: 'uploads/00000000-0000-4000-8000-000000000002',
        id: '00000000-0000-4000-8000-000000000002',
        maxSize: 1n,
        size: BigInt(app.config.storage.quotaBytes),
        status: 'uploaded',
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    // The earlier tests' pictures send their thumbnails to UploadThing from their jobs: once those
    // are done, any PUT would be this file's bytes.
    const earlier = await app.database.prisma.upload.findMany({
      where: { metadata: { path: ['processing'], equals: true } },
      select: { id: true },
    });
    for (const { id } of earlier) await processed(app, id);
    const puts = fake.calls.filter((call) => call.startsWith('PUT')).length;
    await expect(sendDirect(full, await photo(200))).rejects.toThrow(/^Storage quota exceeded: /);
    expect(fake.calls.filter((call) => call.startsWith('PUT')).length).toBe(puts);
    expect(await app.database.prisma.upload.count({ where: { userId: full.id } })).toBe(1);
  });

  it('spends the upload-URL budget on asking the file route, never on the callbacks of UploadThing', async () => {
    // More callbacks than one address may ask for upload URLs have come from UploadThing by now.
    expect([...fake.callbackStatus.values()].filter((status) => status === 200).length).toBeGreaterThan(
      UPLOAD_URLS_PER_ADDRESS,
    );
    const eager = await signedInUser(app);
    const ask = () =>
      appFetch(eager)(`${BASE}${UPLOADTHING_PATH}?actionType=upload&slug=${UPLOADTHING_SLUG}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ files: [{ name: 'a.jpg', size: 10, type: 'image/jpeg' }], input: null }),
      });
    for (let i = 0; i < UPLOAD_URLS_PER_USER; i++) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('lets browsers reach the ingest servers under the content security policy', () => {
    expect(uploadthingConnectSources({ uploadthingToken: undefined })).toEqual([]);
    expect(uploadthingConnectSources({ uploadthingToken: UT_TOKEN })).toEqual(['https://*.ingest.uploadthing.com']);
    expect(
      uploadthingConnectSources({ uploadthingToken: UT_TOKEN, uploadthingEndpoints: { ingestUrl: fake.origin } }),
    ).toEqual([fake.origin]);
  });
});

import { randomBytes } from 'node:crypto';
import { genUploader } from 'uploadthing/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DirectUploadResult, UPLOADTHING_SLUG } from '../../src/storage/contract.ts';
import { UPLOADTHING_PATH, type WorkspaceFileRouter } from '../../src/storage/uploadthing-routes.ts';
import { FakeUploadThing, UT_TOKEN } from '../fakes/uploadthing.ts';
import { FetchXMLHttpRequest } from '../fakes/xhr.ts';
import { BASE, signedInUser, testApp, type SignedInUser, type TestApp } from '../harness.ts';

// Issue 17 item 5 on the UploadThing backend: the room is reserved when the file route hands out
// UploadThing's URL, so files sent at once cannot all fit; a refused one gives its room back.

const KB = 1024;
let fake: FakeUploadThing;
let app: TestApp;
const previousXhr = globalThis.XMLHttpRequest;

beforeAll(async () => {
  globalThis.XMLHttpRequest = FetchXMLHttpRequest as unknown as typeof XMLHttpRequest;
  fake = new FakeUploadThing((url, init) => {
    const target = new URL(url);
    return app.request(`${target.pathname}${target.search}`, init);
  });
  await fake.start();
  app = await testApp({ UPLOADTHING_TOKEN: UT_TOKEN, STORAGE_QUOTA: String(300 * KB) }, (config) =>
    fake.appConfig(config),
  );
});
afterAll(async () => {
  globalThis.XMLHttpRequest = previousXhr;
  await app?.close();
  await fake?.stop();
});

function send(who: SignedInUser, file: File) {
  const uploader = genUploader<WorkspaceFileRouter>({
    url: `${BASE}${UPLOADTHING_PATH}`,
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input.toString());
      if (url.origin !== BASE) return fetch(input, init);
      return app.request(`${url.pathname}${url.search}`, { ...init, cookie: who.cookie });
    },
  });
  return uploader.uploadFiles(UPLOADTHING_SLUG, { files: [file] });
}

function pdf(size: number, name = 'call-sheet.pdf') {
  const bytes = randomBytes(size);
  bytes.set(Buffer.from('%PDF-1.7\n'));
  return new File([new Uint8Array(bytes)], name, { type: 'application/pdf' });
}

describe('quota reservations on the UploadThing backend', () => {
  it('six 190 KB files sent at once against a 300 KB quota: one is taken, five refused before any byte', async () => {
    const who = await signedInUser(app);
    const puts = fake.calls.filter((call) => call.startsWith('PUT')).length;
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => send(who, pdf(190 * KB))));
    const taken = results.filter((r) => r.status === 'fulfilled');
    expect(taken).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === 'rejected')) {
      expect(String((refused as PromiseRejectedResult).reason)).toMatch(/Storage quota exceeded/);
    }
    expect(fake.calls.filter((call) => call.startsWith('PUT')).length - puts).toBe(1);
    const answer = (taken[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof send>>>).value[0]
      ?.serverData as DirectUploadResult;
    expect(answer).toMatchObject({ ok: true, size: 190 * KB });
    // The refused ones left no row (and no reservation) behind.
    expect(await app.database.prisma.upload.count({ where: { userId: who.id } })).toBe(1);
  });

  it('a file refused after the read-back gives its room back', async () => {
    const who = await signedInUser(app);
    const program = new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, ...randomBytes(250 * KB)])], 'x.pdf');
    const [refused] = await send(who, program);
    expect(refused?.serverData).toMatchObject({ ok: false, status: 415 });
    const [result] = await send(who, pdf(250 * KB));
    expect(result?.serverData).toMatchObject({ ok: true });
  });
});

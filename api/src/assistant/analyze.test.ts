import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fakeAnthropic } from '../../test/fake-anthropic.ts';
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, sendBody, signedInUser, testApp } from '../../test/harness.ts';
import { fileRecord, processed, uploaded } from '../storage/testing.ts';
import { TAG_PHOTO } from './photo-tagging-job.ts';
import { tagPhoto } from './tagging.ts';

/** A real JPEG of one colour, uploaded and filed as the user's photo. */
async function photo(app: TestApp, who: User, colour: { r: number; g: number; b: number }, size = { w: 640, h: 400 }) {
  const bytes = await sharp({ create: { width: size.w, height: size.h, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  const { uploadURL } = await uploaded(app, who, new Uint8Array(bytes));
  return fileRecord(app, who, uploadURL, { name: `photo-${Math.random().toString(36).slice(2)}.jpg` });
}

async function analyze(app: TestApp, who: User | undefined, body: unknown) {
  const response = await sendBody(app, who?.cookie, 'POST', '/api/ai/analyze-file', body);
  const text = await response.text();
  return {
    status: response.status,
    body: (response.status === 401 ? {} : JSON.parse(text)) as Record<string, unknown>,
  };
}

const ANALYZE_FILE = `mutation ($fileId: ID!) {
  analyzeFile(fileId: $fileId) {
    __typename
    ... on MutationAnalyzeFileSuccess { data { id tags metadata } }
    ... on Error { message code }
  }
}`;

type AnalyzeFileResult = {
  analyzeFile: { __typename: string; data?: { id: string; tags: string[]; metadata: Record<string, unknown> } } & {
    message?: string;
    code?: string;
  };
};

describe('image tags without an API key (facts from the photo)', () => {
  let app: TestApp, alice: User, bob: User;
  beforeAll(async () => {
    [app, alice, bob] = await appWithPeople(anyone, anyone);
  });
  afterAll(() => app?.close());

  it('tags orientation, dominant colour, time of day, camera and place, and saves them on the file', async () => {
    const filed = await photo(app, alice, { r: 30, g: 70, b: 210 });
    // What storage reads from EXIF (contracts: File.metadata.image), once its processing is done.
    await processed(app, filed.objectPath);
    const file = await app.database.prisma.file.findUniqueOrThrow({ where: { id: filed.id } });
    await app.database.prisma.file.update({
      where: { id: file.id },
      data: {
        tags: ['warehouse'],
        metadata: {
          ...(file.metadata as object),
          image: {
            width: 640,
            height: 400,
            takenAt: '2024-05-01T19:42:00',
            camera: 'Canon EOS R5',
            gps: { latitude: 40.6782, longitude: -73.9442 },
          },
        },
      },
    });
    const progress = app.services.events.subscribe('upload:progress', alice.id);
    const statuses: string[] = [];
    const heard = (async () => {
      for await (const p of progress) {
        statuses.push(p.status);
        if (p.status !== 'analyzing') break;
      }
    })();
    const { status, body } = await analyze(app, alice, { fileId: file.id, fileUrl: file.objectPath });
    await heard;
    expect(statuses).toEqual(['analyzing', 'analyzed']);
    expect(status).toBe(200);
    expect(body.tags).toEqual(['landscape', 'blue', 'evening', 'canon eos r5', 'geotagged']);
    expect(body.description).toBe(
      'Landscape photo, mostly blue, taken in the evening with a Canon EOS R5 at 40.67820, -73.94420.',
    );
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.tags).toEqual(['warehouse', 'landscape', 'blue', 'evening', 'canon eos r5', 'geotagged']);
    const metadata = saved.metadata as { autoTagged: boolean; aiAnalysis: Record<string, unknown>; image: object };
    expect(metadata.autoTagged).toBe(true);
    expect(metadata.aiAnalysis).toMatchObject({ source: 'photo', place: '40.67820, -73.94420', timeOfDay: 'evening' });
    // Storage's facts stay as they were.
    expect(metadata.image).toMatchObject({ camera: 'Canon EOS R5' });
  });

  it('analysed right after its upload, a photo is processed first: its own EXIF facts make the tags', async () => {
    const bytes = await sharp({ create: { width: 400, height: 640, channels: 3, background: '#1e46d2' } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Canon', Model: 'Canon EOS R5' }, IFD2: { DateTimeOriginal: '2024:05:01 19:42:00' } })
      .toBuffer();
    const { uploadURL, metadata } = await uploaded(app, alice, new Uint8Array(bytes));
    expect(metadata).toEqual({ processing: true });
    const file = await fileRecord(app, alice, uploadURL, { name: 'fresh.jpg' });
    const { status, body } = await analyze(app, alice, { fileId: file.id });
    expect(status).toBe(200);
    expect(body.tags).toEqual(expect.arrayContaining(['portrait', 'evening', 'canon eos r5']));
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.metadata).toMatchObject({
      image: { camera: 'Canon EOS R5' },
      thumbnails: { grid: true },
      autoTagged: true,
    });
    expect(saved.metadata).not.toHaveProperty('processing');
  });

  it('tags a filed photo by a job when nobody asked (the tab closed before the upload panel did)', async () => {
    const bytes = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#c82828' } })
      .jpeg()
      .toBuffer();
    const { uploadURL } = await uploaded(app, alice, new Uint8Array(bytes));
    const response = await sendBody(app, alice.cookie, 'POST', '/api/files', {
      name: 'untagged.jpg',
      objectUrl: uploadURL,
    });
    expect(response.status).toBe(201);
    const filed = (await response.json()) as { id: string };
    const jobs = await app.database.prisma.$queryRaw<{ startAfter: Date }[]>`
      SELECT start_after AS "startAfter" FROM pgboss.job
      WHERE name = ${TAG_PHOTO} AND data->>'fileId' = ${filed.id}`;
    expect(jobs).toHaveLength(1);
    // Later than the upload panel's own request, which usually comes first.
    expect(jobs[0]?.startAfter.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect((await app.database.prisma.file.findUniqueOrThrow({ where: { id: filed.id } })).metadata).not.toHaveProperty(
      'autoTagged',
    );

    await tagPhoto(app.services, { store: app.storage.store }, filed.id);
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: filed.id } });
    expect(saved.metadata).toMatchObject({ autoTagged: true, aiAnalysis: { source: 'photo' } });
    expect(saved.tags).toContain('landscape');
  });

  it('says only what the photo shows when it has no EXIF facts', async () => {
    const file = await photo(app, alice, { r: 245, g: 245, b: 245 }, { w: 300, h: 500 });
    const { status, body } = await analyze(app, alice, { fileId: file.id });
    expect(status).toBe(200);
    expect(body.tags).toEqual(['portrait', 'white']);
    expect(body.description).toBe('Portrait photo, mostly white.');
  });

  it('is a 404 for a file that is not the viewer’s, and changes nothing', async () => {
    const file = await photo(app, alice, { r: 200, g: 30, b: 30 });
    const { status } = await analyze(app, bob, { fileId: file.id });
    expect(status).toBe(404);
    expect((await analyze(app, bob, { fileId: 'not-an-id' })).status).toBe(404);
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.tags).toEqual([]);
    expect((saved.metadata as { autoTagged?: boolean }).autoTagged).toBeUndefined();
  });

  it('analyses over GraphQL (analyzeFile) through the same rule: the owner gets the tagged file', async () => {
    const file = await photo(app, alice, { r: 30, g: 70, b: 210 });
    const id = encodeGlobalID('File', file.id);
    const { data, errors } = await graphql<AnalyzeFileResult>(app, alice.cookie, ANALYZE_FILE, { fileId: id });
    expect(errors).toBeUndefined();
    expect(data?.analyzeFile.__typename).toBe('MutationAnalyzeFileSuccess');
    expect(data?.analyzeFile.data).toMatchObject({ id, tags: ['landscape', 'blue'] });
    expect(data?.analyzeFile.data?.metadata).toMatchObject({ autoTagged: true, aiAnalysis: { source: 'photo' } });
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.tags).toEqual(['landscape', 'blue']);
  });

  it('refuses analyzeFile for anyone but the owner as not found, and changes nothing', async () => {
    const file = await photo(app, alice, { r: 200, g: 30, b: 30 });
    const before = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    for (const fileId of [encodeGlobalID('File', file.id), file.id]) {
      const { data } = await graphql<AnalyzeFileResult>(app, bob.cookie, ANALYZE_FILE, { fileId });
      expect(data?.analyzeFile).toEqual({ __typename: 'BaseError', message: 'File not found', code: 'NOT_FOUND' });
    }
    const wrongType = await graphql<AnalyzeFileResult>(app, alice.cookie, ANALYZE_FILE, {
      fileId: encodeGlobalID('Folder', file.id),
    });
    expect(wrongType.data?.analyzeFile).toMatchObject({ __typename: 'ValidationError', code: 'VALIDATION' });
    const after = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(after.tags).toEqual(before.tags);
    expect(after.metadata).toEqual(before.metadata);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it('refuses bad input and files that are not images with a clear 4xx', async () => {
    expect((await analyze(app, alice, {})).status).toBe(400);
    expect((await analyze(app, alice, { fileId: 12 })).status).toBe(400);
    const { uploadURL } = await uploaded(app, alice, 'just some notes');
    const notes = await fileRecord(app, alice, uploadURL, { name: 'notes.txt' });
    const { status, body } = await analyze(app, alice, { fileId: notes.id });
    expect(status).toBe(422);
    expect(body.message).toBe('Only images can be analysed.');
    expect((await analyze(app, undefined, { fileId: notes.id })).status).toBe(401);
  });
});

describe('image tags with Claude (a local fake of the Messages API)', () => {
  let fake: Awaited<ReturnType<typeof fakeAnthropic>>;
  let app: TestApp;
  let alice: User;
  beforeAll(async () => {
    fake = await fakeAnthropic();
    app = await testApp({ ...fake.settings, AI_TIMEOUT_SECONDS: '10' });
    alice = await signedInUser(app);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('sends the preview thumbnail to Claude and saves its tags and description', async () => {
    const file = await photo(app, alice, { r: 120, g: 80, b: 45 }, { w: 2400, h: 1600 });
    fake.script([
      {
        text: '{"tags": ["Warehouse", "industrial", "brick", "interior"], "description": "An empty brick warehouse."}',
      },
    ]);
    const { status, body } = await analyze(app, alice, { fileId: file.id, fileUrl: file.objectPath });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      tags: ['warehouse', 'industrial', 'brick', 'interior'],
      description: 'An empty brick warehouse.',
    });
    // The preview (WebP, at most 1600 px), not the original.
    const content = fake.requests[0]?.body.messages[0]?.content as {
      type: string;
      source?: { media_type: string; data: string };
    }[];
    const image = content.find((c) => c.type === 'image');
    expect(image?.source?.media_type).toBe('image/webp');
    const meta = await sharp(Buffer.from(image?.source?.data ?? '', 'base64')).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(1600);

    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.tags).toEqual(['warehouse', 'industrial', 'brick', 'interior']);
    expect(saved.metadata).toMatchObject({ autoTagged: true, aiAnalysis: { source: 'claude' } });
  });

  it('analyses a photo once: asked again, and by the tagging job after, it answers the same without Claude', async () => {
    const file = await photo(app, alice, { r: 90, g: 90, b: 200 });
    fake.script([{ text: '{"tags": ["rooftop", "city"], "description": "A rooftop over the city."}' }]);
    const asked = fake.requests.length;
    const first = await analyze(app, alice, { fileId: file.id });
    expect(first.status).toBe(200);
    expect(fake.requests.length).toBe(asked + 1);

    const again = await analyze(app, alice, { fileId: file.id });
    expect(again).toEqual(first);
    await tagPhoto(app.services, { store: app.storage.store }, file.id);
    expect(fake.requests.length).toBe(asked + 1);
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.tags).toEqual(['rooftop', 'city']);
  });

  it.each([
    ['a rate limit', { status: 429, errorType: 'rate_limit_error' }],
    ['a bad key', { status: 401, errorType: 'authentication_error' }],
    ['a timeout', { hangMs: 5000 }],
    ['an answer that is not JSON', { text: 'I think this is a warehouse.' }],
  ] as const)('reports %s as a 502 and leaves the file untouched', async (_name, step) => {
    const file = await photo(app, alice, { r: 10, g: 120, b: 40 });
    fake.script([], step);
    // A short timeout only where the fake hangs: on a loaded machine a normal answer may take a while.
    const ai = app.services.config.ai;
    if ('hangMs' in step) app.services.config.ai = { ...ai, timeoutMs: 300 };
    onTestFinished(() => {
      app.services.config.ai = ai;
    });
    const { status, body } = await analyze(app, alice, { fileId: file.id });
    expect(status).toBe(502);
    expect(body.message).toBe('Image analysis failed. The file was kept without new tags.');
    const saved = await app.database.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(saved.tags).toEqual([]);
    expect((saved.metadata as { aiAnalysis?: unknown }).aiAnalysis).toBeUndefined();
  });
});

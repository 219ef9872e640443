import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople } from '../../test/harness.ts';
import { unzip } from '../../test/zip.ts';
import { fileRecord, sha256, uploadedAndProcessed } from '../storage/testing.ts';
import { makeReviewLink } from '../reviews/testing.ts';
import { streamGalleryPdf } from './exports.ts';
import { call, makeFile, makeGallery, shareWith } from './testing.ts';

// A gallery downloaded as a ZIP of its originals and as a PDF lookbook (issue 22, location packages).

let app: TestApp, owner: User, reader: User, stranger: User;
let scratch: string;
const db = () => app.database.prisma;

/** poppler-utils renders and inspects the PDFs; installed here when missing, as CI installs chromium. */
function ensurePoppler() {
  const found = () => spawnSync('pdftoppm', ['-v'], { stdio: 'ignore' }).status === 0;
  if (found()) return;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (apt && process.getuid?.() === 0) {
    spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null'], {
      stdio: 'inherit',
    });
  }
  if (!found()) throw new Error('These tests need poppler-utils (pdftoppm, pdfimages): apt-get install poppler-utils');
}

beforeAll(async () => {
  ensurePoppler();
  [app, owner, reader, stranger] = await appWithPeople(anyone, anyone, anyone);
  scratch = await mkdtemp(path.join(tmpdir(), 'scoutbase-export-'));
}, 120_000);
afterAll(async () => {
  await app.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A real JPEG of one colour, uploaded and processed (thumbnails made), filed under `name`. */
async function photo(name: string, colour: { r: number; g: number; b: number }, facts: object = {}) {
  const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
  const { uploadURL } = await uploadedAndProcessed(app, owner, bytes);
  const file = await fileRecord(app, owner, uploadURL, { name });
  const metadata = file.metadata as { image?: object };
  // EXIF time and place, as processing would have read them from a camera's photo.
  await db().file.update({
    where: { id: file.id },
    data: { metadata: { ...metadata, image: { ...metadata.image, ...facts } } },
  });
  return { file, bytes };
}

/** A shared gallery of three photos, two of one name, two of them geotagged. */
async function locationGallery(name = 'Café ★ lofts/East') {
  const gallery = await makeGallery(app, owner.cookie, {
    name,
    description: 'Brick lofts with north light.',
    location: 'East London',
    tags: 'loft, brick',
  });
  const photos = [
    await photo(
      'barn.jpg',
      { r: 200, g: 40, b: 40 },
      {
        takenAt: '2026-05-01T10:20:30',
        gps: { latitude: 51.5202, longitude: -0.0702 },
      },
    ),
    await photo('barn.jpg', { r: 40, g: 200, b: 40 }, { gps: { latitude: 51.5241, longitude: -0.0751 } }),
    await photo('diner.jpg', { r: 40, g: 40, b: 200 }),
  ];
  const added = await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, {
    fileIds: photos.map((p) => p.file.id),
  });
  expect(added.status).toBe(201);
  return { gallery, photos };
}

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
  return result.stdout;
}

/** Renders every page with pdftoppm; returns the page count, the embedded images and the text. */
async function inspectPdf(bytes: Buffer) {
  const dir = await mkdtemp(path.join(scratch, 'pdf-'));
  const file = path.join(dir, 'lookbook.pdf');
  await writeFile(file, bytes);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(run('pdfinfo', [file]))?.[1]);
  run('pdftoppm', ['-r', '20', '-png', file, path.join(dir, 'page')]);
  const renders = (await readdir(dir)).filter((f) => f.startsWith('page') && f.endsWith('.png'));
  for (const render of renders) expect((await stat(path.join(dir, render))).size).toBeGreaterThan(100);
  // `pdfimages -list`: two header lines, then one line per embedded image.
  const images = run('pdfimages', ['-list', file]).trim().split('\n').slice(2);
  return { pages, renders: renders.length, images, text: run('pdftotext', ['-layout', file, '-']) };
}

describe('gallery ZIP export', () => {
  it("streams every original's bytes, with repeated names told apart", async () => {
    const { gallery, photos } = await locationGallery();
    const response = await app.request(`/api/galleries/${gallery.id}/export.zip`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Caf_ _ lofts_East.zip"; filename*=UTF-8''Caf%C3%A9%20%E2%98%85%20lofts_East.zip`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const entries = await unzip(bytes);
    expect([...entries.keys()]).toEqual(['barn.jpg', 'barn (1).jpg', 'diner.jpg']);
    expect([...entries.values()].map((b) => sha256(b))).toEqual(photos.map((p) => sha256(p.bytes)));
  });

  it('is for whoever may read the gallery: 404 to a stranger, 401 signed out', async () => {
    const gallery = await makeGallery(app, owner.cookie, { name: 'Shared set' });
    const { file } = await photo('porch.jpg', { r: 10, g: 10, b: 10 });
    await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] });
    await shareWith(app, owner, reader, gallery.id, 'read');
    for (const kind of ['zip', 'pdf']) {
      const url = `/api/galleries/${gallery.id}/export.${kind}`;
      expect((await app.request(url, { cookie: reader.cookie })).status).toBe(200);
      const refused = await app.request(url, { cookie: stranger.cookie });
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ message: 'Gallery not found' });
      expect((await app.request(url)).status).toBe(401);
      expect((await app.request(`/api/galleries/not-an-id/export.${kind}`, { cookie: owner.cookie })).status).toBe(404);
    }
  });

  it('answers 404 before sending anything when an original is gone', async () => {
    const gallery = await makeGallery(app, owner.cookie, { name: 'Broken' });
    // A file record whose bytes never reached the store.
    const ghost = await makeFile(app, owner.id, 'ghost.jpg');
    await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: [ghost.id] });
    const response = await app.request(`/api/galleries/${gallery.id}/export.zip`, { cookie: owner.cookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: 'File not found' });
  });
});

describe('gallery PDF lookbook', () => {
  it('renders a cover with a map, then the photos two to a page, one image per photo', async () => {
    const { gallery } = await locationGallery('Riverside lofts');
    const response = await app.request(`/api/galleries/${gallery.id}/export.pdf`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''Riverside%20lofts.pdf`);
    const pdf = await inspectPdf(Buffer.from(await response.arrayBuffer()));
    expect(pdf).toMatchObject({ pages: 3, renders: 3 });
    expect(pdf.images).toHaveLength(3);
    // Printed from the preview thumbnail as JPEG, not the original.
    for (const image of pdf.images) expect(image.split(/\s+/)).toContain('jpeg');
    expect(pdf.text).toContain('Riverside lofts');
    expect(pdf.text).toContain('East London');
    expect(pdf.text).toContain('3 (2 geotagged)');
    expect(pdf.text).toContain('Map of 2 geotagged photos');
    expect(pdf.text).toContain('1. barn.jpg');
    expect(pdf.text).toContain('3. diner.jpg');
    expect(pdf.text).toContain('Taken 2026-05-01 10:20');
    expect(pdf.text).toContain('51.52020° N, 0.07020° W');
  });

  it('prints picks and comments, one photo to a page, when given them', async () => {
    const { gallery, photos } = await locationGallery('Reviewed lofts');
    const first = photos[0]?.file.id;
    const response = await streamGalleryPdf({ db: app.services.db, store: app.storage.store }, gallery.id, {
      annotations: (fileId) =>
        fileId === first
          ? {
              picks: [
                { name: 'Dana', pick: 'yes' },
                { name: 'Lee', pick: 'maybe' },
              ],
              comments: [{ name: 'Dana', body: 'Love the windows', createdAt: new Date('2026-11-20T12:00:00Z') }],
            }
          : undefined,
    });
    const pdf = await inspectPdf(Buffer.from(await response.arrayBuffer()));
    expect(pdf).toMatchObject({ pages: 4, renders: 4 });
    expect(pdf.images).toHaveLength(3);
    expect(pdf.text).toContain('Picks: Yes: Dana');
    expect(pdf.text).toContain('Maybe: Lee');
    expect(pdf.text).toContain('Dana (2026-11-20): Love the windows');
  });

  it('prints what reviewers said, for members and through a review link that allows downloads', async () => {
    const { gallery, photos } = await locationGallery('Client lofts');
    const open = await makeReviewLink(app, owner.cookie, gallery.id, { allowDownload: true });
    const closed = await makeReviewLink(app, owner.cookie, gallery.id);
    const first = photos[0]?.file.id;
    const said = [
      await call(app, undefined, 'PUT', `/api/review/${open.token}/picks/${first}`, { name: 'Dana', pick: 'yes' }),
      await call(app, undefined, 'POST', `/api/review/${open.token}/comments`, {
        fileId: first,
        name: 'Dana',
        body: 'Love the windows',
      }),
    ];
    expect(said.map((r) => r.status)).toEqual([200, 201]);

    for (const [url, cookie] of [
      [`/api/galleries/${gallery.id}/export.pdf`, owner.cookie],
      [`/api/review/${open.token}/export.pdf`, undefined],
    ] as const) {
      const response = await app.request(url, { cookie });
      expect(response.status).toBe(200);
      const pdf = await inspectPdf(Buffer.from(await response.arrayBuffer()));
      // One photo to a page now that there is something to print under it.
      expect(pdf).toMatchObject({ pages: 4, renders: 4 });
      expect(pdf.text).toContain('Picks: Yes: Dana');
      expect(pdf.text).toContain('Love the windows');
    }
    const zip = await app.request(`/api/review/${open.token}/export.zip`);
    expect(zip.status).toBe(200);
    const entries = await unzip(Buffer.from(await zip.arrayBuffer()));
    expect([...entries.values()].map((b) => sha256(b))).toEqual(photos.map((p) => sha256(p.bytes)));

    for (const kind of ['zip', 'pdf']) {
      const refused = await app.request(`/api/review/${closed.token}/export.${kind}`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ message: 'Downloads are not allowed on this link.' });
    }
  });

  it('waits for a slow reader instead of drawing the whole document into memory', async () => {
    const gallery = await makeGallery(app, owner.cookie, { name: 'Noisy set' });
    // Noise does not compress: each printed photo is several hundred KB of PDF.
    const files = [];
    for (let i = 0; i < 6; i++) {
      const bytes = await sharp({
        create: {
          width: 1600,
          height: 1200,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .jpeg()
        .toBuffer();
      const { uploadURL } = await uploadedAndProcessed(app, owner, bytes);
      files.push(await fileRecord(app, owner, uploadURL, { name: `noise-${i}.jpg` }));
    }
    await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: files.map((f) => f.id) });
    const store = app.storage.store;
    let previewsRead = 0;
    const counting = new Proxy(store, {
      get: (target, key) =>
        key === 'get'
          ? (...args: Parameters<typeof store.get>) => {
              previewsRead += 1;
              return target.get(...args);
            }
          : Reflect.get(target, key),
    });
    const response = await streamGalleryPdf({ db: app.services.db, store: counting }, gallery.id);
    // Unread, the drawing must stop: wait until it has stood still for 3 s (a photo takes well under one).
    for (let seen = -1; seen !== previewsRead; ) {
      seen = previewsRead;
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
    expect(previewsRead).toBeGreaterThan(0);
    expect(previewsRead).toBeLessThan(6);
    const pdf = await inspectPdf(Buffer.from(await response.arrayBuffer()));
    expect(previewsRead).toBe(6);
    expect(pdf).toMatchObject({ pages: 4, renders: 4 });
    expect(pdf.images).toHaveLength(6);
  }, 60_000);

  it('prints an empty gallery as its cover alone', async () => {
    const gallery = await makeGallery(app, owner.cookie, { name: 'Empty set' });
    const response = await app.request(`/api/galleries/${gallery.id}/export.pdf`, { cookie: owner.cookie });
    const pdf = await inspectPdf(Buffer.from(await response.arrayBuffer()));
    expect(pdf).toMatchObject({ pages: 1, renders: 1, images: [] });
    expect(pdf.text).toContain('No geotagged photos to map.');
  });
});

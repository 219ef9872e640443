import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople } from '../../test/harness.ts';
import { streamGalleryPdf } from './exports.ts';
import { call, makeFile, makeGallery } from './testing.ts';

// Issue 53: the PDF's map draws the same offline world outline as the web map (world-atlas's
// land) under its points. Checked on the rendered page: land and sea both show in the map's frame.

let app: TestApp, owner: User;
let scratch: string;
beforeAll(async () => {
  [app, owner] = await appWithPeople(anyone);
  scratch = await mkdtemp(path.join(tmpdir(), 'scoutbase-map-'));
}, 120_000);
afterAll(async () => {
  await app.close();
  await rm(scratch, { recursive: true, force: true });
});

/** The cover page rendered by pdftoppm, as raw RGB pixels. */
async function coverPixels(pdf: Buffer) {
  const file = path.join(scratch, `cover-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const result = spawnSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-png', '-singlefile', file, file], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`pdftoppm failed: ${result.stderr}`);
  const png = await readFile(`${file}.png`);
  // To look at the page: MAP_PNG=/tmp/map.png
  if (process.env.MAP_PNG) await writeFile(process.env.MAP_PNG, png);
  return sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

/** How many pixels are exactly `hex` (the renderer keeps flat fills exact away from edges). */
function count({ data }: { data: Buffer }, hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < data.length; i += 3) if (data[i] === r && data[i + 1] === g && data[i + 2] === b) n++;
  return n;
}

describe('the PDF lookbook’s map', () => {
  it('draws the world’s land under the points: London and New York with the Atlantic between', async () => {
    const gallery = await makeGallery(app, owner.cookie, { name: 'Two harbours' });
    const places = [
      { latitude: 51.5072, longitude: -0.1276 },
      { latitude: 40.7128, longitude: -74.006 },
    ];
    const ids: string[] = [];
    for (const [i, gps] of places.entries()) {
      const file = await makeFile(app, owner.id, `harbour-${i}.jpg`);
      await app.database.prisma.file.update({ where: { id: file.id }, data: { metadata: { image: { gps } } } });
      ids.push(file.id);
    }
    expect((await call(app, owner.cookie, 'POST', `/api/galleries/${gallery.id}/items`, { fileIds: ids })).status).toBe(
      201,
    );
    const response = await streamGalleryPdf({ db: app.services.db, store: app.storage.store }, gallery.id);
    const pixels = await coverPixels(Buffer.from(await response.arrayBuffer()));
    const total = pixels.info.width * pixels.info.height;
    const land = count(pixels, '#dde5d3');
    const sea = count(pixels, '#eef2f5');
    // Both fill a good part of the frame (the map is about half the cover page).
    expect(land / total).toBeGreaterThan(0.03);
    expect(sea / total).toBeGreaterThan(0.03);
  });
});

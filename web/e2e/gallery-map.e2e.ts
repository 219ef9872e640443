import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhoto, uploadThroughApi } from './images.ts';
import { startServer, type RunningServer } from './server.ts';
import { DESKTOP, MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

// The gallery map takes its tiles from MAP_TILE_URL (a studio's own tile server here), and keeps
// showing the photos over a world outline shipped with the app when no tile can be loaded.

let app: RunningServer;
let tiles: Server;
let tilesUp = true;
const tileRequests: string[] = [];

beforeAll(async () => {
  const tile = await makePhoto({ width: 256, height: 256, colour: '#cbd5e1' });
  tiles = createServer((request, response) => {
    tileRequests.push(request.url ?? '');
    if (!tilesUp) return response.writeHead(503).end();
    response.writeHead(200, { 'content-type': 'image/jpeg', 'cache-control': 'no-store' }).end(tile);
  });
  await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
  const { port } = tiles.address() as AddressInfo;
  app = await startServer({
    MAP_TILE_URL: `http://127.0.0.1:${port}/studio/{z}/{x}/{y}.png`,
    MAP_TILE_ATTRIBUTION: 'Studio tiles',
  });
}, 180_000);
afterAll(async () => {
  await app?.stop();
  tiles?.close();
});
const browser = sharedBrowser();

describe('the gallery map', () => {
  it('loads tiles from MAP_TILE_URL, and shows the markers over a world outline when tiles cannot load', async () => {
    const { context, page } = await signedInPage(browser(), { server: app.baseURL });
    const gallery = (await (
      await context.request.post('/api/galleries', { data: { name: 'Harbour Warehouses', location: 'Hamburg' } })
    ).json()) as { id: string };
    const photos = [
      ['speicherstadt.jpg', { latitude: 53.5461, longitude: 9.9661 }],
      ['lisbon-tram.jpg', { latitude: 38.7139, longitude: -9.1394 }],
    ] as const;
    const fileIds: string[] = [];
    for (const [name, gps] of photos) {
      fileIds.push((await uploadThroughApi(context.request, name, await makePhoto({ gps }))).id);
    }
    await context.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds } });

    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('tab', { name: 'Map (2)' }).click();
    const map = page.getByTestId('photo-map');
    await map.locator('img.leaflet-tile-loaded').first().waitFor({ timeout: 30_000 });
    expect(tileRequests.some((url) => /^\/studio\/\d+\/\d+\/\d+\.png$/.test(url))).toBe(true);
    await map.getByText('Studio tiles').waitFor();
    expect(await map.locator('.world-outline').count()).toBe(0);

    // The tile server goes away (offline, a firewall): the photos stay on a map of the world.
    tilesUp = false;
    for (const [viewport, name] of [
      [DESKTOP, 'gallery-map-outline-desktop'],
      [MOBILE, 'gallery-map-outline-phone'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`/galleries/${gallery.id}`);
      await page.getByRole('tab', { name: 'Map (2)' }).click();
      await map.locator('.world-outline').first().waitFor();
      await map.getByText('Map tiles could not be loaded: showing a simple world outline.').waitFor();
      expect(await map.locator('.photo-marker').count()).toBe(2);
      expect(await map.locator('img.leaflet-tile').count()).toBe(0);
      await screenshot(page, name);
    }
    expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    await page.setViewportSize(DESKTOP);
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('tab', { name: 'Map (2)' }).click();
    await map.locator('.world-outline').first().waitFor();
    await screenshot(page, 'gallery-map-outline-dark');

    // A marker still opens its photo.
    await map.locator('.photo-marker').first().click();
    await page.getByTestId('lightbox').waitFor();
    await context.close();
  }, 180_000);
});

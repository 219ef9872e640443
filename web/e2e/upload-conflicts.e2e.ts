import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

// Issue #16: an upload whose name is already taken asks Keep both / Replace / Skip, and a gallery
// shows the photo it was given unless the person chose Replace.

const browser = sharedBrowser();

interface FileJson {
  id: string;
  name: string;
  objectPath: string;
}

/** The names at the top level of the files, A to Z. */
async function topLevelFiles(request: APIRequestContext) {
  return ((await (await request.get('/api/files')).json()) as FileJson[]).map((f) => f.name).sort();
}

async function galleryPhoto(request: APIRequestContext, galleryId: string) {
  const items = (await (await request.get(`/api/galleries/${galleryId}/items`)).json()) as { file: FileJson }[];
  return items.map((i) => ({ id: i.file.id, objectPath: i.file.objectPath }));
}

/**
 * Opens the file manager's upload panel, on a fresh page when the screen no longer shows it (after a
 * batch the file list refetches; that refetch is not what is tested here).
 */
async function openUploadPanel(page: Page) {
  if (!page.url().includes('/files')) return;
  if ((await page.getByLabel('Choose files to upload').count()) > 0) return;
  await page.goto('/files');
  await page.getByRole('heading', { name: 'File Manager' }).waitFor();
  await page.getByRole('button', { name: 'Upload Files' }).click();
}

async function choose(page: Page, name: string, buffer: Buffer, label = 'Choose files to upload') {
  await openUploadPanel(page);
  await page.getByLabel(label).setInputFiles({ name, mimeType: 'image/jpeg', buffer });
}

describe('upload conflicts', () => {
  it('asks about a taken name and does what was chosen: keep both, replace, skip', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const request = context.request;
    const barn = await uploadThroughApi(request, 'barn.jpg', await makePhoto({ colour: '#a03020' }));
    const gallery = (await (await request.post('/api/galleries', { data: { name: 'Barns' } })).json()) as {
      id: string;
    };
    expect((await request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [barn.id] } })).status()).toBe(
      201,
    );
    const [original] = await galleryPhoto(request, gallery.id);
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();

    // Keep both (the default answer): the gallery still shows the barn.
    await choose(page, 'barn.jpg', await makePhoto({ colour: '#2040a0' }));
    const dialog = page.getByRole('dialog', { name: 'File already exists' });
    await dialog.waitFor();
    await dialog.getByText('barn.jpg is already in the top level of your files.').waitFor();
    await dialog.getByText('saves the new one as barn (1).jpg', { exact: false }).waitFor();
    await screenshot(page, 'upload-conflict-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await page.getByText('Uploaded as barn (1).jpg.').waitFor();
    expect(await topLevelFiles(request)).toEqual(['barn (1).jpg', 'barn.jpg']);
    expect(await galleryPhoto(request, gallery.id)).toEqual([original]);

    // Replace: a new version of barn.jpg, and the gallery shows it.
    await choose(page, 'barn.jpg', await makePhoto({ colour: '#20a040' }));
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await page.getByText('Replaced barn.jpg.').waitFor();
    const versions = (await (await request.get(`/api/files/${barn.id}/versions`)).json()) as unknown[];
    expect(versions).toHaveLength(2);
    const [replaced] = await galleryPhoto(request, gallery.id);
    expect(replaced?.id).toBe(original?.id);
    expect(replaced?.objectPath).not.toBe(original?.objectPath);

    // Skip: nothing is sent or filed.
    await choose(page, 'barn.jpg', await makePhoto({ colour: '#808020' }));
    await dialog.getByRole('button', { name: 'Skip' }).click();
    await page.getByText('Skipped 1 file.').waitFor();
    expect(await topLevelFiles(request)).toEqual(['barn (1).jpg', 'barn.jpg']);

    // Several at once, at phone width and dark: one answer for the rest of the batch.
    await page.setViewportSize(MOBILE);
    await openUploadPanel(page);
    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'barn.jpg', mimeType: 'image/jpeg', buffer: await makePhoto({ colour: '#303030' }) },
      { name: 'barn (1).jpg', mimeType: 'image/jpeg', buffer: await makePhoto({ colour: '#606060' }) },
    ]);
    const several = page.getByRole('dialog', { name: 'File already exists (1 of 2)' });
    await several.waitFor();
    await several.getByLabel('Apply to all (1 more file with names already taken)').waitFor();
    await screenshot(page, 'upload-conflict-phone');
    expect(await seriousViolations(page)).toEqual([]);
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await screenshot(page, 'upload-conflict-phone-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await several.getByLabel(/Apply to all/).check();
    await several.getByRole('button', { name: 'Skip' }).click();
    await page.getByText('Skipped 2 files.').waitFor();
    expect(await topLevelFiles(request)).toEqual(['barn (1).jpg', 'barn.jpg']);

    // Files sent together ask for their upload URLs in one request.
    const asked: string[] = [];
    page.on('request', (sent) => {
      const url = new URL(sent.url());
      if (url.pathname.startsWith('/api/objects/upload')) asked.push(`${sent.method()} ${url.pathname}${url.search}`);
    });
    await openUploadPanel(page);
    await page.getByLabel('Choose files to upload').setInputFiles(
      ['one', 'two', 'three'].map((n) => ({
        name: `call-sheet-${n}.txt`,
        mimeType: 'text/plain',
        buffer: Buffer.from(`Day ${n}\n`),
      })),
    );
    await page.getByText('3 file(s) uploaded successfully.').waitFor();
    expect(asked).toEqual(['POST /api/objects/uploads?count=3']);
    expect(await topLevelFiles(request)).toEqual([
      'barn (1).jpg',
      'barn.jpg',
      'call-sheet-one.txt',
      'call-sheet-three.txt',
      'call-sheet-two.txt',
    ]);
    await context.close();
    // Four uploads through the real server and three axe runs: more than the default minute on a busy machine.
  }, 240_000);

  it('asks in the gallery too, whose uploads land at the top level of the files', async () => {
    const { context, page } = await signedInPage(browser());
    const request = context.request;
    const diner = await uploadThroughApi(request, 'diner.jpg', await makePhoto({ colour: '#c08040' }));
    const gallery = (await (await request.post('/api/galleries', { data: { name: 'Diners' } })).json()) as {
      id: string;
    };
    await request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [diner.id] } });
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('heading', { name: 'Diners' }).waitFor();
    await choose(page, 'diner.jpg', await makePhoto({ colour: '#4080c0' }), 'Upload photos to this gallery');
    const dialog = page.getByRole('dialog', { name: 'File already exists' });
    await dialog.getByText('diner.jpg is already in the top level of your files.').waitFor();
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await page.getByText('Uploaded as diner (1).jpg.').waitFor();
    // The new photo joins the gallery beside the old one, which is unchanged.
    await expect.poll(async () => (await galleryPhoto(request, gallery.id)).length, { timeout: 10_000 }).toBe(2);
    const [first] = await galleryPhoto(request, gallery.id);
    expect(first?.id).toBe(diner.id);
    expect(await topLevelFiles(request)).toEqual(['diner (1).jpg', 'diner.jpg']);
    await context.close();
  });
});

import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import filesScreenQuery from '../src/screens/files/__generated__/FilesScreenQuery$parameters.ts';
import createFileMutation from '../src/uploads/__generated__/useCreateFileMutation.graphql.ts';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { emptyScreen, MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

/** The Versions dialog of a file that has two, once both are listed. */
async function openVersions(page: Page, fileName: string) {
  await page.getByRole('button', { name: `Actions for ${fileName}` }).click();
  await page.getByRole('menuitem', { name: 'Versions (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Versions' });
  await dialog.getByTestId('version-row').nth(1).waitFor();
  return dialog;
}

/** Restores version 1 from the open Versions dialog and closes it; the file's row then says v3. */
async function restoreVersion1(page: Page, dialog: Locator, row: Locator, screenshotName: string) {
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await page.getByText('Version 1 restored.').waitFor();
  // Restoring adds the old bytes as the newest version, so history is kept.
  await dialog.getByText('Version 3').waitFor();
  await screenshot(page, screenshotName);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await row.getByText(/v3/).waitFor();
}

describe('file manager', () => {
  it('creates a folder, uploads a photo with progress, shows its thumbnail, opens and deletes it', async () => {
    const { context, page } = await emptyScreen(
      browser(),
      '/files',
      'File Manager',
      'No folders',
      'No files in this folder',
    );

    await page.getByRole('button', { name: 'New Folder' }).click();
    await page.getByRole('dialog', { name: 'New Folder' }).getByRole('button', { name: 'Create Folder' }).click();
    await page.getByText('Folder name is required.').waitFor();
    await page.getByLabel('Folder Name').fill('Location Scouting');
    await page.getByRole('button', { name: 'Create Folder' }).click();
    await page.getByText('Folder created successfully!').waitFor();
    await page.getByRole('button', { name: 'Location Scouting', exact: true }).click();
    await page.waitForURL(/folder=/);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Location Scouting').waitFor();

    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.waitForURL(/upload=true/);
    // The upload is filed with the createFile mutation, whose answer puts the file in the folder's
    // list: the folder is not asked for again.
    const asked: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (request.method() === 'POST' && request.url().endsWith('/api/files')) asked.push('POST /api/files');
      for (const [name, query] of Object.entries({ createFileMutation, filesScreenQuery })) {
        if (body.includes(`"doc_id":"${query.params.id}"`)) asked.push(name);
      }
    });
    const photo = await makePhoto();
    await page
      .getByLabel('Choose files to upload')
      .setInputFiles({ name: 'warehouse.jpg', mimeType: 'image/jpeg', buffer: photo });
    const item = page.getByTestId('upload-item');
    await item.getByRole('progressbar').waitFor();
    await page.getByText('1 file(s) uploaded successfully').waitFor();
    expect(await item.getAttribute('data-status')).toBe('completed');
    expect(await item.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await page.getByTestId('file-row').filter({ hasText: 'warehouse.jpg' }).waitFor();
    expect(asked).toEqual(['createFileMutation']);

    // A large photo goes resumably over tus (the server offers it for local storage).
    const large = await makePhoto({ width: 1600, height: 1200, noisy: true });
    expect(large.length).toBeGreaterThan(256 * 1024);
    const tusRequest = page.waitForRequest((request) => request.url().includes('/api/objects/tus'));
    await page
      .getByLabel('Choose files to upload')
      .setInputFiles({ name: 'backlot-panorama.jpg', mimeType: 'image/jpeg', buffer: large });
    await tusRequest;
    await page
      .getByTestId('upload-item')
      .filter({ hasText: 'backlot-panorama.jpg' })
      .and(page.locator('[data-status="completed"]'))
      .waitFor();
    await page.getByTestId('file-row').filter({ hasText: 'backlot-panorama.jpg' }).waitFor();

    // A type the spec does not accept is listed with the spec's message.
    await page
      .getByLabel('Choose files to upload')
      .setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await page.getByText('Some files were rejected:').waitFor();

    const row = page.getByTestId('file-row').filter({ hasText: 'warehouse.jpg' });
    await row.waitFor();
    const thumbnail = row.getByTestId('file-thumbnail');
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(await thumbnail.getAttribute('src')).toMatch(/^\/objects\/uploads\/[0-9a-f-]+\?variant=grid$/);
    // A 40-pixel icon in the list never needs more; a cell of the grid layout offers 2x for dense screens.
    expect(await thumbnail.getAttribute('srcset')).toBeNull();
    await screenshot(page, 'files-desktop');
    await page.getByRole('button', { name: 'grid', exact: true }).click();
    const tile = page.getByTestId('file-row').filter({ hasText: 'warehouse.jpg' }).getByTestId('file-thumbnail');
    expect(await tile.getAttribute('srcset')).toMatch(
      /\?variant=grid 1x, \/objects\/uploads\/[0-9a-f-]+\?variant=grid2x 2x$/,
    );
    await page.getByRole('button', { name: 'list', exact: true }).click();

    // Opening the file shows it in the File Manager's preview (file-preview.e2e.ts walks it).
    await row.getByRole('link', { name: 'warehouse.jpg' }).click();
    await page.getByTestId('preview-image').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('preview'));

    // Search runs on the server above 2 characters and reports its count.
    await page.getByLabel('Search files').fill('wareh');
    await page.getByText('Search Complete').waitFor();
    await page.getByText('Found 1 file matching your search.').waitFor();
    await page.getByLabel('Search files').fill('');
    await page.waitForURL((url) => !url.searchParams.has('search'));
    // The folder's list is back (the search found only one of its two files): a menu opened on the
    // search results would go with them.
    await page.getByText('Found 1 file matching your search.').waitFor({ state: 'detached' });
    await page.getByTestId('file-row').filter({ hasText: 'backlot-panorama.jpg' }).waitFor();

    for (const name of ['warehouse.jpg', 'backlot-panorama.jpg']) {
      await page.getByRole('button', { name: `Actions for ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByText('Are you sure you want to delete this file? This action cannot be undone.').waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('File deleted successfully!').waitFor();
      await page.getByTestId('file-row').filter({ hasText: name }).waitFor({ state: 'detached' });
    }
    await page.getByText('No files in this folder').waitFor();

    await page.getByRole('button', { name: 'Root' }).click();
    await page.getByRole('button', { name: 'Location Scouting', exact: true }).waitFor();
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'files-mobile');
    await context.close();
  });

  it('lists the versions of a file and restores an earlier one', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);
    await uploadThroughApi(context.request, 'call-sheet.pdf', pdf('first draft'), 'application/pdf');
    await uploadThroughApi(
      context.request,
      'call-sheet.pdf',
      pdf('second draft, a little longer'),
      'application/pdf',
      null,
      'replace',
    );
    await page.reload();
    const row = page.getByTestId('file-row').filter({ hasText: 'call-sheet.pdf' });
    await row.getByText(/v2/).waitFor();
    expect(await page.getByTestId('file-row').count()).toBe(1);

    const dialog = await openVersions(page, 'call-sheet.pdf');
    expect(await dialog.getByTestId('version-row').first().textContent()).toContain('Current');
    await restoreVersion1(page, dialog, row, 'files-versions');
    await context.close();
  });

  it('uploads a new version from the file menu with progress, downloads it, and restores version 1', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    await uploadThroughApi(context.request, 'set-photo.jpg', await makePhoto({ colour: '#2563eb' }));
    await page.reload();
    const row = page.getByTestId('file-row').filter({ hasText: 'set-photo.jpg' });
    await row.waitFor();
    const sizeBefore = await row.locator('p').textContent();

    await page.getByRole('button', { name: 'Actions for set-photo.jpg' }).click();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('menuitem', { name: 'Upload new version' }).click(),
    ]);
    // The new version may have any name; the file keeps its own.
    const retouched = await makePhoto({ width: 1200, height: 900, colour: '#dc2626' });
    await chooser.setFiles({ name: 'IMG_2041-retouched.jpg', mimeType: 'image/jpeg', buffer: retouched });
    const item = page.getByRole('region', { name: 'New versions' }).getByTestId('upload-item');
    await item.getByRole('progressbar', { name: 'Upload progress for IMG_2041-retouched.jpg' }).waitFor();
    await page.getByText('Version 2 of set-photo.jpg uploaded.').waitFor();
    expect(await item.getAttribute('data-status')).toBe('completed');
    await row.getByText(/v2/).waitFor();
    expect(await row.locator('p').textContent()).not.toBe(sizeBefore);
    expect(await page.getByTestId('file-row').count()).toBe(1);

    const dialog = await openVersions(page, 'set-photo.jpg');
    const rows = dialog.getByTestId('version-row');
    expect(await rows.first().textContent()).toMatch(/Version 2.*Current/);
    // Each version's bytes download with the file's own authorization.
    for (const [index, bytes] of [
      [0, retouched],
      [1, null],
    ] as const) {
      const href = await rows
        .nth(index)
        .getByRole('link', { name: /^Download version/ })
        .getAttribute('href');
      const response = await context.request.get(href ?? '');
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('image/jpeg');
      expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="set-photo.jpg"/);
      if (bytes) expect(Buffer.compare(await response.body(), bytes)).toBe(0);
    }
    await restoreVersion1(page, dialog, row, 'files-new-version');
    // Version 1's size is back.
    expect(await row.locator('p').textContent()).toBe(`${sizeBefore} · v3`);
    await context.close();
  });

  it('renames, moves and deletes folders from their menu, with the API’s messages', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const folder = async (name: string, parentId: string | null = null) => {
      const response = await context.request.post('/api/folders', { data: { name, parentId } });
      expect(response.status()).toBe(201);
      return ((await response.json()) as { id: string }).id;
    };
    const scouting = await folder('Scouting');
    const day1 = await folder('Day 1', scouting);
    await folder('Archive');
    await folder('Empty one');
    await uploadThroughApi(context.request, 'pier.jpg', await makePhoto(), 'image/jpeg', day1);
    await page.reload();
    const folders = page.getByRole('list', { name: 'Folders' });
    await folders.getByRole('button', { name: 'Archive', exact: true }).waitFor();

    // Rename, by keyboard: Enter opens the menu on its first item, Enter chooses it.
    await page.getByRole('button', { name: 'Actions for folder Archive' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menuitem', { name: 'Rename' }).waitFor();
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename Folder' });
    await rename.getByLabel('Folder Name').fill('   ');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.getByRole('alert').getByText('Folder name is required.').waitFor();
    await rename.getByLabel('Folder Name').fill('scouting');
    await page.keyboard.press('Enter');
    await rename.getByText('A folder named "scouting" already exists at the top level.').waitFor();
    await rename.getByLabel('Folder Name').fill('Archive 2025');
    await page.keyboard.press('Enter');
    await page.getByText('Folder renamed successfully!').waitFor();
    await folders.getByRole('button', { name: 'Archive 2025', exact: true }).waitFor();
    await folders.getByRole('button', { name: 'Archive', exact: true }).waitFor({ state: 'detached' });

    // Move into another folder: it leaves this list without a reload.
    await page.getByRole('button', { name: 'Actions for folder Archive 2025' }).click();
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const move = page.getByRole('dialog', { name: 'Move Folder' });
    await move.getByRole('list', { name: 'Destination folders' }).getByRole('button', { name: 'Scouting' }).click();
    await move.getByRole('button', { name: 'Move to Scouting' }).click();
    await page.getByText('Folder moved to Scouting.').waitFor();
    await folders.getByRole('button', { name: 'Archive 2025', exact: true }).waitFor({ state: 'detached' });

    // Never into itself: the API's refusal is shown in the dialog.
    await page.getByRole('button', { name: 'Actions for folder Scouting' }).click();
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    await move.getByRole('list', { name: 'Destination folders' }).getByRole('button', { name: 'Scouting' }).click();
    await move
      .getByRole('list', { name: 'Destination folders' })
      .getByRole('button', { name: 'Archive 2025' })
      .waitFor();
    await move.getByRole('button', { name: 'Move to Scouting' }).click();
    await move.getByRole('alert').getByText('A folder cannot be moved into itself or one of its subfolders.').waitFor();
    await screenshot(page, 'files-move-folder');
    await move.getByRole('button', { name: 'Cancel' }).click();

    // An empty folder goes after a plain confirmation.
    await page.getByRole('button', { name: 'Actions for folder Empty one' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete Folder' });
    await remove.getByText('Are you sure you want to delete this folder? This action cannot be undone.').waitFor();
    await remove.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Folder deleted successfully!').waitFor();
    await folders.getByRole('button', { name: 'Empty one', exact: true }).waitFor({ state: 'detached' });

    // One with content asks whether everything inside goes too.
    await page.getByRole('button', { name: 'Actions for folder Scouting' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await remove
      .getByText(
        '"Scouting" is not empty: it contains 2 folders. Delete it with everything inside? This action cannot be undone.',
      )
      .waitFor();
    await remove.getByRole('button', { name: 'Delete Everything' }).click();
    await page.getByText('Folder deleted successfully!').waitFor();
    await page.getByText('No folders').waitFor();
    expect(await (await context.request.get('/api/folders')).json()).toEqual([]);
    expect(await (await context.request.get('/api/files/recent')).json()).toEqual([]);
    await context.close();
  });
  it('search: a hint under 3 characters, a tag found by its beginning, and each result’s folder', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const api = context.request;
    const folder = async (name: string, parentId: string | null = null) =>
      (await (await api.post('/api/folders', { data: { name, parentId } })).json()) as { id: string };
    const scouting = await folder('Scouting');
    const barns = await folder('Barns', scouting.id);
    const photo = await makePhoto();
    // Two files of one name in different folders, and one tagged with a camera.
    await uploadThroughApi(api, 'hayloft.jpg', photo, 'image/jpeg', barns.id);
    await uploadThroughApi(api, 'hayloft.jpg', photo, 'image/jpeg', null);
    const tagged = await uploadThroughApi(api, 'IMG_2044.jpg', photo, 'image/jpeg', scouting.id);
    expect((await api.patch(`/api/files/${tagged.id}`, { data: { tags: ['Canon EOS R5'] } })).status()).toBe(200);

    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search files', exact: true });
    await search.fill('ha');
    await page.getByText('Type at least 3 characters to search all folders').waitFor();

    await search.fill('hayloft');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByTestId('file-row').nth(1).waitFor();
    const rows = (await results.getByTestId('file-row').allTextContents()).join('\n');
    expect(rows).toContain('Root › Scouting › Barns');
    expect(rows).toMatch(/Root(?! ›)/);
    expect(await page.getByText('Type at least 3 characters to search all folders').count()).toBe(0);
    await screenshot(page, 'files-search-folders-desktop');

    await search.fill('canon');
    await results.getByTestId('file-row').filter({ hasText: 'IMG_2044.jpg' }).waitFor();
    expect(await results.getByTestId('file-row').filter({ hasText: 'Root › Scouting' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    // Phone width, dark.
    await page.setViewportSize(MOBILE);
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await search.fill('hayloft');
    await results.getByText('Root › Scouting › Barns').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'files-search-folders-phone-dark');
    await search.fill('ha');
    await page.getByText('Type at least 3 characters to search all folders').waitFor();
    await screenshot(page, 'files-search-hint-phone-dark');
    await context.close();
  }, 180_000);
});

import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { DESKTOP, MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

// The file manager as a drive: rename and move files (dialog and drag), choose several and move,
// download, add to a gallery or delete them together.

const browser = sharedBrowser();

async function folder(request: APIRequestContext, name: string, parentId: string | null = null) {
  const response = await request.post('/api/folders', { data: { name, parentId } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function filesIn(request: APIRequestContext, folderId: string | null) {
  const response = await request.get(`/api/files${folderId ? `?folderId=${folderId}` : ''}`);
  return ((await response.json()) as { name: string }[]).map((f) => f.name).sort();
}

const row = (page: Page, name: string) => page.getByTestId('file-row').filter({ hasText: name });

async function expectNoSeriousViolations(page: Page, where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

describe('files like a drive', () => {
  it('renames a file and moves it with Move to…, by dragging onto a folder and onto the Root breadcrumb', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const scouting = await folder(context.request, 'Scouting');
    const photo = await makePhoto();
    await uploadThroughApi(context.request, 'IMG_0042.jpg', photo);
    await uploadThroughApi(context.request, 'diner.jpg', photo);
    await uploadThroughApi(context.request, 'taken.jpg', photo, 'image/jpeg', scouting);
    await page.reload();
    await row(page, 'IMG_0042.jpg').waitFor();

    // Rename, with the API's messages in the dialog.
    await page.getByRole('button', { name: 'Actions for IMG_0042.jpg' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename File' });
    const nameField = rename.getByLabel('File Name');
    expect(await nameField.inputValue()).toBe('IMG_0042.jpg');
    await nameField.fill('   ');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.getByRole('alert').getByText('File name is required.').waitFor();
    await nameField.fill('diner.jpg');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.getByText('A file named "diner.jpg" already exists at the top level.').waitFor();
    await expectNoSeriousViolations(page, 'rename dialog');
    await nameField.fill('barn-sunset.jpg');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('File renamed successfully!').waitFor();
    await row(page, 'barn-sunset.jpg').waitFor();
    expect(await row(page, 'IMG_0042.jpg').count()).toBe(0);

    // Move to…: the folder the file is in cannot be chosen; a taken name is refused in words.
    await page.getByRole('button', { name: 'Actions for barn-sunset.jpg' }).click();
    await page.getByRole('menuitem', { name: 'Move to…' }).click();
    const move = page.getByRole('dialog', { name: 'Move File' });
    await move.getByText('The file is already in Root.').waitFor();
    expect(await move.getByRole('button', { name: 'Move to Root' }).isDisabled()).toBe(true);
    await move.getByRole('list', { name: 'Destination folders' }).getByRole('button', { name: 'Scouting' }).click();
    await expectNoSeriousViolations(page, 'move dialog');
    await screenshot(page, 'files-drive-move-dialog');
    await move.getByRole('button', { name: 'Move to Scouting' }).click();
    await page.getByText('"barn-sunset.jpg" moved to Scouting.').waitFor();
    await row(page, 'barn-sunset.jpg').waitFor({ state: 'detached' });
    expect(await filesIn(context.request, scouting)).toEqual(['barn-sunset.jpg', 'taken.jpg']);

    // Drag onto a folder of the folder list.
    const scoutingFolder = page.getByTestId('folder-row').filter({ hasText: 'Scouting' });
    await row(page, 'diner.jpg').dragTo(scoutingFolder);
    await page.getByText('"diner.jpg" moved to Scouting.').waitFor();
    await page.getByText('No files in this folder').waitFor();
    expect(await filesIn(context.request, scouting)).toEqual(['barn-sunset.jpg', 'diner.jpg', 'taken.jpg']);

    // Inside the folder, drag onto the Root breadcrumb.
    await scoutingFolder.getByRole('button', { name: 'Scouting', exact: true }).click();
    await page.waitForURL(/folder=/);
    await row(page, 'diner.jpg').waitFor();
    const root = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('button', { name: 'Root' });
    await row(page, 'diner.jpg').dragTo(root);
    await page.getByText('"diner.jpg" moved to Root.').waitFor();
    await row(page, 'diner.jpg').waitFor({ state: 'detached' });
    expect(await filesIn(context.request, null)).toEqual(['diner.jpg']);
    await context.close();
  }, 180_000);

  it('chooses several files and moves, downloads, adds to a gallery and deletes them together', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const archive = await folder(context.request, 'Archive');
    const photo = await makePhoto();
    for (const name of ['pier.jpg', 'lighthouse.jpg', 'harbour.jpg', 'market.jpg']) {
      await uploadThroughApi(context.request, name, photo);
    }
    const gallery = await context.request.post('/api/galleries', { data: { name: 'Harbour Town' } });
    expect(gallery.status()).toBe(201);
    const galleryId = ((await gallery.json()) as { id: string }).id;
    await page.reload();
    await row(page, 'pier.jpg').waitFor();

    // Select all, then leave one out: the toolbar and the status line follow.
    const status = page.getByRole('region', { name: 'File list' }).getByRole('status');
    await page.getByLabel('Select all files').check();
    await status.getByText('4 files selected').waitFor();
    await page.getByLabel('Select market.jpg').uncheck();
    await status.getByText('3 files selected').waitFor();
    expect(await page.getByLabel('Select all files').evaluate((box: HTMLInputElement) => box.indeterminate)).toBe(true);
    const toolbar = page.getByRole('region', { name: 'Selected files' });
    await expectNoSeriousViolations(page, 'selection toolbar');
    await screenshot(page, 'files-drive-selection-desktop');

    // Download: one ZIP streamed by the server.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      toolbar.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('scoutbase-3-files.zip');
    const zipped = await context.request.get(
      (await toolbar.getByRole('link', { name: 'Download' }).getAttribute('href')) ?? '',
    );
    expect(zipped.headers()['content-type']).toBe('application/zip');
    const bytes = await zipped.body();
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    for (const name of ['pier.jpg', 'lighthouse.jpg', 'harbour.jpg']) expect(bytes.includes(name)).toBe(true);
    expect(bytes.includes('market.jpg')).toBe(false);

    // Add to gallery.
    await toolbar.getByRole('button', { name: 'Add to gallery' }).click();
    const add = page.getByRole('dialog', { name: 'Add to Gallery' });
    await add.getByRole('button', { name: 'Add to Gallery' }).click();
    await add.getByText('Choose a gallery.').waitFor();
    await add.getByRole('radio', { name: /Harbour Town/ }).check();
    await expectNoSeriousViolations(page, 'add to gallery dialog');
    await screenshot(page, 'files-drive-add-to-gallery');
    await add.getByRole('button', { name: 'Add to Gallery' }).click();
    await page.getByText('3 files added to Harbour Town.').waitFor();
    await toolbar.waitFor({ state: 'detached' });
    const items = await context.request.get(`/api/galleries/${galleryId}/items`);
    expect(((await items.json()) as unknown[]).length).toBe(3);

    // Bulk move with the dialog.
    await page.getByLabel('Select pier.jpg').check();
    await page.getByLabel('Select lighthouse.jpg').check();
    await toolbar.getByRole('button', { name: 'Move to…' }).click();
    const move = page.getByRole('dialog', { name: 'Move Files' });
    await move.getByText('Choose where to move 2 files.').waitFor();
    await move.getByRole('button', { name: 'Archive' }).click();
    await move.getByRole('button', { name: 'Move to Archive' }).click();
    await page.getByText('2 files moved to Archive.').waitFor();
    await row(page, 'pier.jpg').waitFor({ state: 'detached' });
    expect(await filesIn(context.request, archive)).toEqual(['lighthouse.jpg', 'pier.jpg']);

    // A drag that starts on a chosen file carries every chosen file.
    await page.getByLabel('Select harbour.jpg').check();
    await page.getByLabel('Select market.jpg').check();
    await row(page, 'market.jpg').dragTo(page.getByTestId('folder-row').filter({ hasText: 'Archive' }));
    // (Its toast reads as the one before, so the list and the server tell.)
    await page.getByText('No files in this folder').waitFor();
    expect(await filesIn(context.request, archive)).toEqual([
      'harbour.jpg',
      'lighthouse.jpg',
      'market.jpg',
      'pier.jpg',
    ]);

    // Bulk delete: one confirmation naming the count. At phone width, and dark.
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await row(page, 'pier.jpg').waitFor();
    await page.setViewportSize(MOBILE);
    await page.getByLabel('Select pier.jpg').check();
    await page.getByLabel('Select harbour.jpg').check();
    await status.getByText('2 files selected').waitFor();
    await expectNoSeriousViolations(page, 'selection toolbar at phone width');
    await screenshot(page, 'files-drive-selection-phone');
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await screenshot(page, 'files-drive-selection-dark');
    await toolbar.getByRole('button', { name: 'Move to…' }).click();
    await page.getByRole('dialog', { name: 'Move Files' }).getByRole('button', { name: 'Move to Root' }).waitFor();
    await expectNoSeriousViolations(page, 'move dialog at phone width, dark');
    await screenshot(page, 'files-drive-move-phone-dark');
    await page.getByRole('dialog', { name: 'Move Files' }).getByRole('button', { name: 'Cancel' }).click();
    await toolbar.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Files' });
    await confirm.getByText('Delete 2 files? This action cannot be undone.').waitFor();
    await expectNoSeriousViolations(page, 'delete confirmation at phone width');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('2 files deleted.').waitFor();
    await row(page, 'pier.jpg').waitFor({ state: 'detached' });
    expect(await filesIn(context.request, archive)).toEqual(['lighthouse.jpg', 'market.jpg']);
    await page.setViewportSize(DESKTOP);
    await context.close();
  }, 180_000);
});

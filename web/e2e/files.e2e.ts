import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhoto, uploadThroughApi } from './images.ts';
import { launchBrowser, MOBILE, screenshot, signedInPage } from './support.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('file manager', () => {
  it('creates a folder, uploads a photo with progress, shows its thumbnail, opens and deletes it', async () => {
    const { context, page } = await signedInPage(browser, { path: '/files' });
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    await page.getByText('No folders').waitFor();
    await page.getByText('No files in this folder').waitFor();

    await page.getByRole('button', { name: 'New Folder' }).click();
    await page.getByRole('dialog', { name: 'New Folder' }).getByRole('button', { name: 'Create Folder' }).click();
    await page.getByText('Folder name is required.').waitFor();
    await page.getByLabel('Folder Name').fill('Location Scouting');
    await page.getByRole('button', { name: 'Create Folder' }).click();
    await page.getByText('Folder created successfully!').waitFor();
    await page.getByRole('button', { name: 'Location Scouting' }).click();
    await page.waitForURL(/folder=/);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Location Scouting').waitFor();

    await page.getByRole('button', { name: 'Upload Files' }).click();
    await page.waitForURL(/upload=true/);
    const photo = await makePhoto();
    await page
      .getByLabel('Choose files to upload')
      .setInputFiles({ name: 'warehouse.jpg', mimeType: 'image/jpeg', buffer: photo });
    const item = page.getByTestId('upload-item');
    await item.getByRole('progressbar').waitFor();
    await page.getByText('1 file(s) uploaded successfully').waitFor();
    expect(await item.getAttribute('data-status')).toBe('completed');
    expect(await item.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');

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
    await screenshot(page, 'files-desktop');

    // Opening the file shows its bytes in a new tab.
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('link', { name: 'warehouse.jpg' }).click(),
    ]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toMatch(/^\/objects\/uploads\//);
    await tab.close();

    // Search runs on the server above 2 characters and reports its count.
    await page.getByLabel('Search files').fill('wareh');
    await page.getByText('Search Complete').waitFor();
    await page.getByText('Found 1 file matching your search.').waitFor();
    await page.getByLabel('Search files').fill('');
    await page.waitForURL((url) => !url.searchParams.has('search'));

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
    await page.getByRole('button', { name: 'Location Scouting' }).waitFor();
    await page.setViewportSize(MOBILE);
    await screenshot(page, 'files-mobile');
    await context.close();
  });

  it('lists the versions of a file and restores an earlier one', async () => {
    const { context, page } = await signedInPage(browser, { path: '/files' });
    const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);
    await uploadThroughApi(context.request, 'call-sheet.pdf', pdf('first draft'), 'application/pdf');
    await uploadThroughApi(context.request, 'call-sheet.pdf', pdf('second draft, a little longer'), 'application/pdf');
    await page.reload();
    const row = page.getByTestId('file-row').filter({ hasText: 'call-sheet.pdf' });
    await row.getByText(/v2/).waitFor();
    expect(await page.getByTestId('file-row').count()).toBe(1);

    await page.getByRole('button', { name: 'Actions for call-sheet.pdf' }).click();
    await page.getByRole('menuitem', { name: 'Versions (2)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Versions' });
    await dialog.getByTestId('version-row').nth(1).waitFor();
    expect(await dialog.getByTestId('version-row').first().textContent()).toContain('Current');
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version 1 restored.').waitFor();
    // Restoring adds the old bytes as the newest version, so history is kept.
    await dialog.getByText('Version 3').waitFor();
    await screenshot(page, 'files-versions');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await row.getByText(/v3/).waitFor();
    await context.close();
  });
});

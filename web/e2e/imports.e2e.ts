import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, inject, it } from 'vitest';
import { screenshot, sharedBrowser, signedInPage } from './support.ts';

const importDir = inject('importDir');

const browser = sharedBrowser();

/** A real PNG of one colour (the server checks the bytes, not the name). */
function png(width: number, height: number, [r, g, b]: [number, number, number]) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function fillImportFolder() {
  await mkdir(path.join(importDir, 'Recce'), { recursive: true });
  await writeFile(path.join(importDir, 'warehouse-exterior.png'), png(64, 40, [160, 60, 40]));
  await writeFile(path.join(importDir, 'Recce', 'loading-dock.png'), png(48, 48, [40, 90, 160]));
}

describe('import dialog', () => {
  it('imports a photo from the server folder into the file manager, with a retry after a failed connection', async () => {
    // The folder is missing at first: the source cannot be reached.
    await rm(importDir, { recursive: true, force: true });
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Import files' }).waitFor();
    await dialog.getByRole('button', { name: /Server folder/ }).click();
    await dialog.getByText('Connection failed. Please try again.').waitFor();

    await fillImportFolder();
    await dialog.getByRole('button', { name: 'Retry Connection' }).click();
    const list = dialog.getByRole('list', { name: 'Files to import' });
    await list.getByText('warehouse-exterior.png').waitFor();
    const importButton = dialog.getByRole('button', { name: /^Import/ });
    expect(await importButton.isDisabled()).toBe(true);
    // Folders open; they have no checkbox to choose them.
    expect(await list.getByRole('checkbox').count()).toBe(1);
    await screenshot(page, 'import-dialog-list');

    await dialog.getByLabel('Search files to import').fill('zeppelin');
    await dialog.getByText('No files found').waitFor();
    await dialog.getByLabel('Search files to import').fill('dock');
    await list.getByText('loading-dock.png').waitFor();
    await dialog.getByLabel('Search files to import').fill('');
    await list.getByText('warehouse-exterior.png').waitFor();

    await list.getByRole('checkbox').check();
    expect(await importButton.isDisabled()).toBe(false);
    await dialog.getByRole('button', { name: 'Open folder Recce' }).click();
    await list.getByText('loading-dock.png').waitFor();
    await list.getByRole('checkbox').check();
    await dialog.getByText('2 selected').waitFor();
    await dialog.getByRole('button', { name: 'Import (2)' }).click();

    await page.getByText('Files imported', { exact: true }).waitFor();
    await page.getByText('2 files imported successfully.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    const files = page.getByRole('region', { name: 'File list' });
    await files.getByText('warehouse-exterior.png').waitFor();
    await files.getByText('loading-dock.png').waitFor();
    await screenshot(page, 'import-done-files');
    await context.close();
  });

  it('imports media into a gallery from the gallery screen', async () => {
    await fillImportFolder();
    const { context, page } = await signedInPage(browser(), { path: '/galleries' });
    const created = await context.request.post('/api/galleries', { data: { name: 'Dockside' } });
    const gallery = (await created.json()) as { id: string };
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('heading', { name: 'Dockside' }).waitFor();
    await page.getByText('0 photos').first().waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /Server folder/ }).click();
    const list = dialog.getByRole('list', { name: 'Files to import' });
    await list.getByText('warehouse-exterior.png').waitFor();
    await list.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Import (1)' }).click();
    await page.getByText('Media imported', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('1 photo', { exact: true }).first().waitFor();
    await screenshot(page, 'import-done-gallery');
    await context.close();
  });

  it('goes straight to a source from the dashboard’s Import from menu', async () => {
    await fillImportFolder();
    const { context, page } = await signedInPage(browser(), { path: '/' });
    await page.getByRole('button', { name: 'Import from' }).click();
    // Google Drive and Dropbox are not set up on this server: the dialog says so.
    await page.getByRole('menuitem', { name: 'Google Drive' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('button', { name: /Google Drive/ }).isDisabled()).toBe(true);
    await dialog.getByText('Not set up on this server').first().waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Import from' }).click();
    await page.getByRole('menuitem', { name: 'Server folder' }).click();
    const list = dialog.getByRole('list', { name: 'Files to import' });
    await list.getByText('warehouse-exterior.png').waitFor();
    await list.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Import (1)' }).click();
    await page.getByText('Media imported', { exact: true }).waitFor();
    await page.getByText('1 file imported successfully.').waitFor();
    await context.close();
  });
});

import { describe, expect, it } from 'vitest';
import { screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('dashboard', () => {
  it('starts empty, then shows live stats, recent galleries, activity and tasks', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/' });
    await page.getByText('No galleries yet').waitFor();
    expect(await page.getByRole('link', { name: 'Create Gallery' }).getAttribute('href')).toBe('/galleries');
    await screenshot(page, 'dashboard-empty-desktop');

    const created = await context.request.post('/api/galleries', {
      data: { name: 'Harbour Warehouses', description: 'Brick, cranes', tags: ['industrial'], status: 'active' },
    });
    expect(created.status()).toBeLessThan(300);
    await context.request.post('/api/tasks', {
      data: { title: 'Call the harbour office', priority: 'high', dueDate: null },
    });

    await page.reload();
    const gallery = page.getByRole('link', { name: 'Open gallery Harbour Warehouses' });
    await gallery.waitFor();
    const stat = (label: string) => page.locator('div', { has: page.getByText(label, { exact: true }) }).last();
    expect(await stat('Active Galleries').textContent()).toContain('1');
    await page.getByText('created the gallery').waitFor();
    await page.getByText('created the task').waitFor();
    expect(await page.getByText('Call the harbour office').count()).toBe(2);

    await page
      .getByLabel('Choose files to upload')
      .setInputFiles({ name: 'rooftop.png', mimeType: 'image/png', buffer: PNG });
    await page.getByText('1 file(s) uploaded successfully').waitFor({ timeout: 30_000 });
    await page.getByText(/^Total Photos$/).waitFor();
    await page.waitForFunction(
      () => {
        const card = [...document.querySelectorAll('p')].find((p) => p.textContent === 'Total Photos');
        return card?.nextElementSibling?.textContent === '1';
      },
      undefined,
      { timeout: 30_000 },
    );
    await screenshot(page, 'dashboard-desktop');

    await gallery.click();
    // Addresses carry the gallery's global id, never its raw uuid.
    await page.waitForURL(/\/galleries\/[^/?]+$/);
    expect(page.url()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    await page.getByRole('tab', { name: /^Photos/ }).waitFor();
    await context.close();
  });
  it('the sidebar storage card follows uploads and deletes without a reload', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/' });
    const card = page.getByTestId('storage-usage');
    await card.getByText(/^0 Bytes of .* used$/).waitFor();
    const bytes = Buffer.concat([PNG, Buffer.alloc(150 * 1024)]);
    await page
      .getByLabel('Choose files to upload')
      .setInputFiles({ name: 'storage-check.png', mimeType: 'image/png', buffer: bytes });
    await page.getByText('1 file(s) uploaded successfully').waitFor({ timeout: 30_000 });
    await card.getByText(/^15\d(\.\d+)? KB of .* used$/).waitFor({ timeout: 15_000 });
    await screenshot(page, 'storage-card-after-upload-desktop');

    // Deleting in the File Manager gives the space back, at once.
    await page.getByRole('navigation').getByRole('link', { name: 'File Manager' }).first().click();
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    await page.getByRole('button', { name: 'Actions for storage-check.png' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('File deleted successfully!').waitFor();
    await card.getByText(/^0 Bytes of .* used$/).waitFor({ timeout: 15_000 });
    await context.close();
  }, 120_000);
});

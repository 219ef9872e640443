import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { DESKTOP, MOBILE, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

const settled = () => !document.querySelector('[aria-busy="true"], [data-testid="skeleton"]');

describe('media screens with content are accessible', () => {
  for (const viewport of [DESKTOP, MOBILE]) {
    it(`galleries, a gallery with its lightbox, map and share dialog, and files with uploads at ${viewport.width}px`, async () => {
      const { context, page } = await signedInPage(browser(), { path: '/', viewport });
      const created = await context.request.post('/api/galleries', {
        data: { name: 'Night Market', location: 'Taipei', tags: ['street', 'neon', 'crowd', 'food'] },
      });
      const gallery = (await created.json()) as { id: string };
      const file = await uploadThroughApi(
        context.request,
        'stall.jpg',
        await makePhoto({ gps: { latitude: 25.0478, longitude: 121.5319 } }),
      );
      await context.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [file.id] } });

      await page.goto('/galleries');
      await page.getByTestId('gallery-card').first().waitFor();
      await page.waitForFunction(settled);
      expect(await seriousViolations(page), '/galleries').toEqual([]);
      await page.getByRole('button', { name: 'Actions for Night Market' }).click();
      await page.getByRole('menuitem', { name: 'Share Gallery' }).click();
      await page.getByRole('dialog', { name: 'Share Gallery' }).getByText('Current Shares').waitFor();
      expect(await seriousViolations(page), 'share dialog').toEqual([]);
      await page.keyboard.press('Escape');

      await page.goto(`/galleries/${gallery.id}`);
      await page.getByTestId('photo-tile').first().waitFor();
      expect(await seriousViolations(page), 'gallery').toEqual([]);
      await page.getByTestId('photo-tile').first().click();
      await page.getByTestId('lightbox').getByText('Canon EOS R5', { exact: true }).waitFor();
      expect(await seriousViolations(page), 'lightbox').toEqual([]);
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Map (1)' }).click();
      // Offline here: the marker shows over the world outline shipped with the app.
      await page.getByTestId('photo-map').locator('.photo-marker').waitFor({ timeout: 20_000 });
      expect(await seriousViolations(page), 'map fallback').toEqual([]);

      await page.goto('/files?upload=true');
      await page.getByTestId('file-row').first().waitFor();
      await page.getByLabel('Choose files to upload').setInputFiles([
        { name: 'plan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') },
        { name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') },
      ]);
      await page.getByText('Some files were rejected:').waitFor();
      await page.getByTestId('upload-item').first().waitFor();
      await page.waitForFunction(settled);
      expect(await seriousViolations(page), '/files with uploads').toEqual([]);
      await context.close();
    }, 120_000);
  }
});

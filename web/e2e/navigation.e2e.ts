import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { MOBILE, screenshot, sharedBrowser, signedInPage, visitorPage } from './support.ts';

// Getting around (issue 53): the phone reaches the File Manager and search as Drive's app does, and
// a signed-out visitor at an address that is nothing gets the 404 page, not the landing page.

const browser = sharedBrowser();

describe('getting around', () => {
  it('on a phone, the bottom bar has the File Manager and the header searches', async () => {
    const { context, page } = await signedInPage(browser(), { viewport: MOBILE, path: '/' });
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const bar = page.getByRole('navigation', { name: 'Mobile' });
    expect(await bar.getByRole('link').allTextContents()).toEqual(['Home', 'Galleries', 'Files', 'Projects', 'Tasks']);
    await bar.getByRole('link', { name: 'Files' }).click();
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    expect(await bar.getByRole('link', { name: 'Files' }).getAttribute('aria-current')).toBe('page');

    await page.getByRole('button', { name: 'Search' }).click();
    const field = page.getByRole('searchbox', { name: 'Search', exact: true });
    await field.waitFor();
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'mobile-search-open');
    await field.fill('harbour');
    await field.press('Enter');
    await page.waitForURL(/\/files\?search=harbour$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  });

  it("on a phone, a gallery's photos start on the first screen and its other actions are under More", async () => {
    const { context, page } = await signedInPage(browser(), { viewport: MOBILE, path: '/galleries' });
    const gallery = (await (
      await context.request.post('/api/galleries', {
        data: { name: 'Harbour Cranes', description: 'Dock cranes at dusk', location: 'Bilbao' },
      })
    ).json()) as { id: string };
    const photo = await uploadThroughApi(context.request, 'crane.jpg', await makePhoto({ colour: '#0f766e' }));
    await context.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [photo.id] } });
    await page.goto(`/galleries/${gallery.id}`);
    const tile = page.getByTestId('photo-tile').first();
    await tile.waitFor();
    const box = await tile.boundingBox();
    expect(box && box.y + box.height / 2).toBeLessThan(MOBILE.height);
    // Before: Add Photos, Upload Photos, Import, Edit Gallery, Review Links, Download and Share.
    expect(await page.getByRole('button', { name: 'Edit Gallery' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Upload Photos', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Share Gallery' }).waitFor();

    await page.getByRole('button', { name: 'More actions' }).click();
    const items = await page.getByRole('menuitem').allTextContents();
    expect(items).toEqual([
      'Add Photos',
      'Import',
      'Edit Gallery',
      'Review Links',
      'Download all originals (ZIP)',
      'Download lookbook (PDF)',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'gallery-phone-more');
    await page.getByRole('menuitem', { name: 'Edit Gallery' }).click();
    await page.getByRole('dialog', { name: 'Edit Gallery' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Review Links' }).click();
    await page.getByRole('dialog', { name: 'Review Links' }).waitFor();
    await context.close();
  });

  it('shows a signed-out visitor the 404 page at an unknown address, and the pages that are there', async () => {
    const { context, page } = await visitorPage(browser());
    await page.goto('/no-such-page/here');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    expect(await page.getByText('Authorized Access Only').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to Home Page' }).click();
    await page.getByText('Authorized Access Only').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // The addresses of the app lead to the landing page, which leads to sign-in; the others stay.
    for (const [path, text] of [
      ['/', 'Authorized Access Only'],
      ['/galleries/R2FsbGVyeTox', 'Authorized Access Only'],
      ['/settings/security', 'Authorized Access Only'],
      ['/files?search=x', 'Authorized Access Only'],
      ['/privacy', 'Privacy Policy'],
      ['/signin', 'Sign in to Scoutbase'],
      ['/verify-email', 'Verify'],
      ['/reset-password', 'password'],
    ] as const) {
      await page.goto(path);
      await page.getByText(text, { exact: false }).first().waitFor();
      expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count(), path).toBe(0);
    }
    await context.close();
  });
});

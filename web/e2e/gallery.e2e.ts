import { describe, expect, it } from 'vitest';
import { makePhoto, uploadThroughApi } from './images.ts';
import { MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

describe('gallery screen', () => {
  it('adds photos by upload and from the file manager, shows metadata, sets the cover, maps and keeps notes', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/galleries' });
    const created = await context.request.post('/api/galleries', {
      data: { name: 'Harbour Warehouses', location: 'Hamburg' },
    });
    const gallery = (await created.json()) as { id: string };
    await uploadThroughApi(context.request, 'dock-crane.jpg', await makePhoto({ colour: '#0f766e' }));

    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('heading', { name: 'Harbour Warehouses' }).waitFor();
    await page.getByText('No photos yet').waitFor();

    // Upload a geotagged photo straight into the gallery.
    const geotagged = await makePhoto({ gps: { latitude: 53.5461, longitude: 9.9661 } });
    await page
      .getByLabel('Upload photos to this gallery')
      .setInputFiles({ name: 'speicherstadt.jpg', mimeType: 'image/jpeg', buffer: geotagged });
    await page.getByTestId('upload-item').getByRole('progressbar').waitFor();
    await page.getByText('1 photo(s) added to the gallery.').waitFor();
    await page.getByRole('button', { name: 'Open speicherstadt.jpg' }).waitFor();

    // Add one from the file manager.
    await page.getByRole('button', { name: 'Add Photos' }).first().click();
    const picker = page.getByRole('dialog', { name: 'Add Photos' });
    await picker.getByRole('checkbox', { name: 'dock-crane.jpg' }).check();
    await picker.getByRole('button', { name: /Add 1 to Gallery/ }).click();
    await page.getByRole('button', { name: 'Open dock-crane.jpg' }).waitFor();
    expect(await page.getByTestId('photo-tile').count()).toBe(2);
    await expect
      .poll(() =>
        page
          .getByTestId('photo-tile')
          .first()
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBeGreaterThan(0);
    await screenshot(page, 'gallery-desktop');

    // The lightbox shows the photo's metadata; set it as the cover.
    await page.getByRole('button', { name: 'Open speicherstadt.jpg' }).click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.getByText('Canon EOS R5', { exact: true }).waitFor();
    await lightbox.getByText('800 × 600').waitFor();
    await lightbox.getByText(/53\.546\d+° N, 9\.966\d+° E/).waitFor();
    await screenshot(page, 'gallery-lightbox');
    await lightbox.getByRole('button', { name: 'Set as cover' }).click();
    await page.getByText('Cover updated.').waitFor();
    await lightbox.getByRole('button', { name: 'Cover photo' }).waitFor();
    // The arrows step through the gallery's photos, and stop at its ends.
    expect(await lightbox.getByRole('button', { name: 'Previous photo' }).isDisabled()).toBe(true);
    await lightbox.getByRole('button', { name: 'Next photo' }).click();
    await lightbox.getByRole('heading', { name: 'dock-crane.jpg' }).waitFor();
    expect(await lightbox.getByRole('button', { name: 'Next photo' }).isDisabled()).toBe(true);
    await lightbox.getByRole('button', { name: 'Previous photo' }).click();
    await lightbox.getByRole('heading', { name: 'speicherstadt.jpg' }).waitFor();
    await page.keyboard.press('Escape');

    // The photo's marker shows whether or not tiles load (offline here: over the world outline).
    await page.getByRole('tab', { name: 'Map (1)' }).click();
    await page.getByTestId('photo-map').locator('.photo-marker').waitFor({ timeout: 20_000 });

    await page.getByRole('tab', { name: 'Notes' }).click();
    // Auto Save is on by default: the notes save a moment after typing stops.
    await page.getByRole('textbox', { name: 'Notes' }).fill('Gate code 4711. Best light after 4 pm.');
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    await page.reload();
    // The page itself asks for the first thumbnails (a preload from the answer it carries), and
    // the grid uses that answer rather than asking again: seen in a browser that has none cached.
    const cold = await browser().newContext({ storageState: await context.storageState() });
    await cold.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    const coldPage = await cold.newPage();
    await coldPage.goto(page.url());
    await coldPage.getByTestId('photo-tile').first().locator('img').waitFor();
    // A resource is listed once it has loaded, which under load can be after the grid is drawn.
    const thumbnails = () =>
      coldPage.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('variant=grid'))
          .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
      );
    await expect.poll(thumbnails).toHaveLength(2);
    expect(await thumbnails()).toEqual(['link', 'link']);
    // Nor does it load any dialog's code (or the lightbox's) before one opens: held back here by an
    // idle callback that never comes, the code arrives when the dialog is asked for. The page asks
    // for the app's code only once it has painted: looked at once the app has taken the grid over.
    await coldPage.waitForFunction(() => {
      const tile = document.querySelector('[data-testid="photo-tile"]');
      return tile !== null && Object.keys(tile).some((key) => key.startsWith('__reactFiber$'));
    });
    const scripts = await coldPage.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name).pathname)
        .filter((name) => name.endsWith('.js')),
    );
    expect(scripts.length).toBeGreaterThan(3);
    expect(
      scripts.filter((name) =>
        /\/(Dialog|ShareGalleryDialog|ReviewLinksDialog|FilePickerDialog|GalleryFormDialogView|ImportDialog|ConflictDialog|Lightbox)-[\w-]+\.js$/.test(
          name,
        ),
      ),
    ).toEqual([]);
    await coldPage.getByRole('button', { name: 'Share Gallery' }).click();
    await coldPage.getByRole('dialog', { name: /Share/ }).waitFor();
    await cold.close();

    // On a screen of two device pixels per CSS pixel (a phone's), the page's preloads and the grid
    // both take the 800-pixel thumbnails, so the cells are sharp and each is still fetched once.
    const dense = await browser().newContext({ storageState: await context.storageState(), deviceScaleFactor: 2 });
    const densePage = await dense.newPage();
    await densePage.goto(page.url());
    const firstThumbnail = densePage.getByTestId('photo-tile').first().locator('img');
    // naturalWidth is in CSS pixels: the 800-pixel thumbnail drawn at density 2.
    await expect
      .poll(() =>
        firstThumbnail.evaluate(
          (img: HTMLImageElement) => img.complete && `${new URL(img.currentSrc).search} ${img.naturalWidth}`,
        ),
      )
      .toBe('?variant=grid2x 400');
    const fetched = () =>
      densePage.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('variant=grid'))
          .map((entry) => `${new URL(entry.name).search} ${(entry as PerformanceResourceTiming).initiatorType}`),
      );
    await expect.poll(fetched).toHaveLength(2);
    expect(await fetched()).toEqual(['?variant=grid2x link', '?variant=grid2x link']);
    await dense.close();
    await page.getByRole('tab', { name: 'Notes' }).click();
    expect(await page.getByRole('textbox', { name: 'Notes' }).inputValue()).toBe(
      'Gate code 4711. Best light after 4 pm.',
    );

    // Edit Gallery here starts from the gallery's values, and the header shows the saved ones without a reload.
    await page.getByText('2 photos · Hamburg', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit Gallery' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Gallery' });
    expect(await edit.getByLabel('Gallery Name').inputValue()).toBe('Harbour Warehouses');
    expect(await edit.getByLabel('Location').inputValue()).toBe('Hamburg');
    await edit.getByLabel('Location').fill('Altona');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('2 photos · Altona', { exact: true }).waitFor();

    // The gallery card now has a cover and counts its photos.
    await page.goto('/galleries');
    const card = page.getByTestId('gallery-card').filter({ hasText: 'Harbour Warehouses' });
    expect(await card.getByTestId('photo-count').textContent()).toBe('2 photos');
    expect(await card.locator('img').getAttribute('src')).toMatch(/\?variant=grid$/);
    // On a phone's screen the card takes the cover's 800-pixel thumbnail, the one its page preloaded.
    const phone = await browser().newContext({
      storageState: await context.storageState(),
      viewport: MOBILE,
      deviceScaleFactor: 3,
    });
    const phonePage = await phone.newPage();
    await phonePage.goto(page.url());
    const cover = phonePage.getByTestId('gallery-card').filter({ hasText: 'Harbour Warehouses' }).locator('img');
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && new URL(img.currentSrc).search))
      .toBe('?variant=grid2x');
    const covers = await phonePage.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('variant=grid'))
        .map((entry) => `${new URL(entry.name).search} ${(entry as PerformanceResourceTiming).initiatorType}`),
    );
    expect(covers).toEqual(['?variant=grid2x link']);
    await phone.close();
    await page.setViewportSize(MOBILE);
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByTestId('photo-tile').first().waitFor();
    await screenshot(page, 'gallery-mobile');

    // Taking a photo out of the gallery leaves the file in the file manager.
    await page.getByRole('button', { name: 'Open dock-crane.jpg' }).click();
    await page.getByTestId('lightbox').getByRole('button', { name: 'Remove from gallery' }).click();
    await page.getByText('Photo removed from the gallery.').waitFor();
    await page.getByRole('button', { name: 'Open dock-crane.jpg' }).waitFor({ state: 'detached' });
    await page.getByText('1 photo', { exact: false }).first().waitFor();
    expect(await page.getByTestId('photo-tile').count()).toBe(1);
    const files = (await (await context.request.get('/api/files')).json()) as { name: string }[];
    expect(files.map((f) => f.name)).toContain('dock-crane.jpg');
    await context.close();
  });
  it('walks a gallery larger than its first page to its last photo in the lightbox, on a phone', async () => {
    const { context, page } = await signedInPage(browser(), { viewport: MOBILE, path: '/galleries' });
    const gallery = (await (
      await context.request.post('/api/galleries', { data: { name: 'Container Terminal' } })
    ).json()) as { id: string };
    const bytes = await makePhoto({ colour: '#1e3a8a' });
    const names = Array.from({ length: 52 }, (_, i) => `frame-${String(i + 1).padStart(2, '0')}.jpg`);
    const fileIds: string[] = [];
    for (const name of names) fileIds.push((await uploadThroughApi(context.request, name, bytes)).id);
    expect((await context.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds } })).status()).toBe(
      201,
    );

    // The screen reads the first 48; on a phone's two columns that is far more than the screen shows,
    // so the rest comes only as the person goes on: here, through the lightbox.
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('tab', { name: 'Photos (52)' }).waitFor();
    await page.getByTestId('photo-tile').first().click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.getByText('1 of 52').waitFor();
    for (let i = 0; i < 120 && !(await lightbox.getByText('52 of 52').isVisible()); i++) {
      if (await lightbox.getByRole('button', { name: 'Next photo' }).isEnabled())
        await page.keyboard.press('ArrowRight');
      else await page.waitForTimeout(50);
    }
    await lightbox.getByRole('heading', { name: 'frame-52.jpg' }).waitFor();
    await context.close();
  });
});

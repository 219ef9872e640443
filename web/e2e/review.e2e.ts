import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { baseURL, MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

describe('review links', () => {
  it('a reviewer without an account unlocks, picks and comments; the owner sees it live, then revokes', async () => {
    // The owner's gallery with two photos.
    const { context, page } = await signedInPage(browser(), { path: '/galleries' });
    const gallery = (await (
      await context.request.post('/api/galleries', { data: { name: 'Harbour Lofts', location: 'Hamburg' } })
    ).json()) as { id: string };
    const fileIds: string[] = [];
    for (const [name, colour, gps] of [
      ['loft-stairs.jpg', '#0f766e', { latitude: 53.5438, longitude: 9.9663 }],
      ['loft-roof.jpg', '#b45309', undefined],
    ] as const) {
      fileIds.push((await uploadThroughApi(context.request, name, await makePhoto({ colour, gps }))).id);
    }
    expect((await context.request.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds } })).ok()).toBe(true);

    // A link with a password; its URL shows once.
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('heading', { name: 'Harbour Lofts' }).waitFor();
    await page.getByRole('button', { name: 'Review Links' }).click();
    const dialog = page.getByRole('dialog', { name: 'Review Links' });
    await dialog.getByText('No review links yet.').waitFor();
    await dialog.getByLabel('Password (optional)').fill('abc');
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    await dialog.getByText('The password must have at least 4 characters.').waitFor();
    await dialog.getByLabel('Who is it for? (optional)').fill('Director');
    await dialog.getByLabel('Password (optional)').fill('lofts-2026');
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const url = await dialog.getByLabel('Review link').inputValue();
    expect(url).toMatch(/^http:\/\/[^/]+\/r\/[A-Za-z0-9_-]{22,}$/);
    const row = dialog.getByTestId('review-link-row');
    await row.getByText('Director').waitFor();
    await row.getByText(/^Password · No downloads/).waitFor();
    await screenshot(page, 'review-links-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The owner keeps the first photo open while the reviewer works.
    await page.getByRole('button', { name: 'Open loft-stairs.jpg' }).click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.getByText('No comments yet.').waitFor();

    // A phone without an account, in light mode, three device pixels per CSS pixel as most are; it
    // opens the link once the photos' thumbnails are made.
    for (const id of fileIds) {
      await expect
        .poll(async () => {
          const file = (await (await context.request.get(`/api/files/${id}`)).json()) as {
            metadata: { thumbnails?: { grid2x?: boolean } };
          };
          return file.metadata.thumbnails?.grid2x;
        })
        .toBe(true);
    }
    const phone = await browser().newContext({
      baseURL,
      viewport: MOBILE,
      deviceScaleFactor: 3,
      colorScheme: 'light',
      hasTouch: true,
    });
    const review = await phone.newPage();
    await review.goto(new URL(url).pathname);
    await review.getByRole('heading', { name: 'Password required' }).waitFor();
    await review.getByLabel('Password').fill('wrong password');
    await review.getByRole('button', { name: 'Open gallery' }).click();
    await review.getByText('That password is not right.').waitFor();
    await screenshot(review, 'review-phone-password-light');
    await review.getByLabel('Password').fill('lofts-2026');
    await review.getByRole('button', { name: 'Open gallery' }).click();
    await review.getByRole('heading', { name: 'Harbour Lofts' }).waitFor();
    await expect
      .poll(() =>
        review
          .locator('main img')
          .first()
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBeGreaterThan(0);
    // The grid's 800-pixel thumbnail, so a cell of about 180 CSS pixels is sharp on this screen.
    expect(
      await review
        .locator('main img')
        .first()
        .evaluate((img: HTMLImageElement) => img.currentSrc),
    ).toMatch(/\?variant=grid2x$/);
    expect(await seriousViolations(review)).toEqual([]);
    // The geotagged photo on a map (its coordinates listed as the map's text alternative) opens it.
    await review.getByRole('heading', { name: 'Map' }).waitFor();
    await review.locator('.photo-marker').waitFor();
    await review.getByText('Coordinates').click();
    await review.getByTestId('coordinate-list').getByRole('button', { name: 'loft-stairs.jpg' }).click();
    await review.getByTestId('review-lightbox').getByRole('heading', { name: 'loft-stairs.jpg' }).waitFor();
    await review.keyboard.press('Escape');
    await review.getByTestId('review-lightbox').waitFor({ state: 'detached' });

    // The first pick asks for the reviewer's name, once.
    const picks = review.getByRole('group', { name: 'Your pick for loft-stairs.jpg' });
    await picks.getByRole('button', { name: 'Yes' }).click();
    const nameDialog = review.getByRole('dialog', { name: 'What is your name?' });
    await nameDialog.getByRole('button', { name: 'Continue' }).click();
    await nameDialog.getByText('Please give your name.').waitFor();
    await nameDialog.getByLabel('Your name').fill('Dana Director');
    await nameDialog.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => picks.getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed')).toBe('true');
    await review.getByText('Reviewing as Dana Director').waitFor();
    await screenshot(review, 'review-phone-grid-light');

    // A comment from the lightbox, with no second question about the name.
    await review.getByRole('button', { name: 'Open loft-stairs.jpg' }).click();
    const reviewBox = review.getByTestId('review-lightbox');
    await reviewBox.getByLabel('Comment on loft-stairs.jpg').fill('Love the light on the stairs. Can we shoot at 6?');
    await reviewBox.getByRole('button', { name: 'Send comment' }).click();
    await reviewBox.getByText('Love the light on the stairs. Can we shoot at 6?').waitFor();
    await reviewBox.getByText('Comments (1)').waitFor();
    expect(await review.getByRole('dialog', { name: 'What is your name?' }).count()).toBe(0);
    await screenshot(review, 'review-phone-lightbox-light');

    // The owner's open lightbox shows both, without a reload.
    await lightbox.getByText('Dana Director: Yes').waitFor();
    await lightbox.getByText('Love the light on the stairs. Can we shoot at 6?').waitFor();
    await lightbox.getByText('Dana Director (reviewer)').waitFor();
    await screenshot(page, 'review-owner-lightbox');

    // The owner answers in the same place.
    await lightbox.getByLabel('Add a comment').fill('6 am works, gate opens at 5:30.');
    await lightbox.getByRole('button', { name: 'Comment' }).click();
    await lightbox.getByText('6 am works, gate opens at 5:30.').waitFor();
    await lightbox.getByText('Comments (2)').waitFor();

    // Dark mode on the phone follows the system when the reviewer has no setting.
    await review.keyboard.press('Escape');
    await reviewBox.waitFor({ state: 'detached' });
    await review.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => review.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await seriousViolations(review)).toEqual([]);
    await screenshot(review, 'review-phone-grid-dark');
    await review.getByRole('button', { name: /^Open loft-stairs\.jpg/ }).click();
    await reviewBox.getByText('Comments (1)').waitFor();
    await screenshot(review, 'review-phone-lightbox-dark');
    await review.keyboard.press('Escape');

    // The owner revokes; the reviewer's page, reloaded, says the link is gone.
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Review Links' }).click();
    await dialog.getByRole('button', { name: 'Revoke Director' }).click();
    await dialog.getByRole('group', { name: 'Revoke Director?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('"Director" no longer opens the gallery.').waitFor();
    await dialog.getByTestId('review-link-row').getByText('Revoked').waitFor();

    await review.reload();
    await review.getByRole('heading', { name: 'This review link is no longer available' }).waitFor();
    await screenshot(review, 'review-phone-gone-dark');
    const page404 = await phone.request.get(`/api/review/${new URL(url).pathname.slice(3)}`);
    expect(page404.status()).toBe(404);

    // A link that allows downloads, without a password, offers the location package.
    const open = await context.request.post(`/api/galleries/${gallery.id}/review-links`, {
      data: { label: 'Producer', allowDownload: true },
    });
    expect(open.status()).toBe(201);
    const openUrl = ((await open.json()) as { url: string }).url;
    await review.goto(openUrl.startsWith('/') ? openUrl : new URL(openUrl).pathname);
    await review.getByRole('heading', { name: 'Harbour Lofts' }).waitFor();
    const zip = review.getByRole('link', { name: 'All photos (ZIP)' });
    const zipAnswer = await phone.request.get((await zip.getAttribute('href')) ?? '');
    expect(zipAnswer.status()).toBe(200);
    expect((await zipAnswer.body()).subarray(0, 2).toString()).toBe('PK');
    await review.getByRole('link', { name: 'Lookbook (PDF)' }).waitFor();
    await screenshot(review, 'review-phone-downloads-dark');

    // A new link asks the name again; asked from the lightbox, the comment goes out once it is given.
    await review.getByRole('button', { name: 'Open loft-roof.jpg' }).click();
    await reviewBox.getByLabel('Comment on loft-roof.jpg').fill('Is the roof safe for a crane?');
    await reviewBox.getByRole('button', { name: 'Send comment' }).click();
    const askName = review.getByRole('dialog', { name: 'What is your name?' });
    await askName.getByLabel('Your name').fill('Pat Producer');
    await askName.getByRole('button', { name: 'Continue' }).click();
    await reviewBox.getByText('Is the roof safe for a crane?').waitFor();
    await reviewBox.getByText('Pat Producer').waitFor();
    expect(await reviewBox.getByLabel('Comment on loft-roof.jpg').inputValue()).toBe('');
    await page.getByText('On loft-roof.jpg: Is the roof safe for a crane?').waitFor();

    // Members download the same package from the gallery, the lookbook with what reviewers said.
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Download' }).click();
    for (const [name, type] of [
      ['All originals (ZIP)', 'application/zip'],
      ['Lookbook with comments (PDF)', 'application/pdf'],
    ]) {
      const href = (await page.getByRole('menuitem', { name }).getAttribute('href')) ?? '';
      const answer = await context.request.get(href);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe(type);
    }
    await page.keyboard.press('Escape');

    // The owner on a phone: the photo's feedback under it.
    await page.setViewportSize(MOBILE);
    await page.getByRole('button', { name: 'Open loft-stairs.jpg' }).click();
    await lightbox.getByText('Comments (2)').waitFor();
    await screenshot(page, 'review-owner-lightbox-mobile');

    await phone.close();
    await context.close();
  });
});

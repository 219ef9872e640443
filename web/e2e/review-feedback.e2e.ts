import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import {
  baseURL,
  DESKTOP,
  MOBILE,
  newUser,
  screenshot,
  sharedBrowser,
  signedInPage,
  post,
  shareWithCrew,
} from './support.ts';

// Issue #53: review feedback on the owner's grid (badges, totals, pick filter kept in the
// address), a new gallery from the picks, and "Shared with you" apart from one's own galleries.

const browser = sharedBrowser();

const tiles = (page: Page) => page.getByTestId('photo-tile');
const noOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('review feedback on the grid', () => {
  it('the owner sees picks and comments, filters by them and makes a gallery of the picks; a member sees it shared', async () => {
    const owner = await signedInPage(browser(), { path: '/galleries', user: newUser('Olga Ortega') });
    const gallery = await post<{ id: string }>(owner.context.request, '/api/galleries', { name: 'Harbour Sheds' });
    const fileIds: string[] = [];
    for (const [name, colour] of [
      ['shed-door.jpg', '#0f766e'],
      ['shed-roof.jpg', '#b45309'],
      ['shed-yard.jpg', '#1d4ed8'],
    ] as const) {
      fileIds.push((await uploadThroughApi(owner.context.request, name, await makePhoto({ colour }))).id);
    }
    await post(owner.context.request, `/api/galleries/${gallery.id}/items`, { fileIds });
    const link = await post<{ url: string }>(owner.context.request, `/api/galleries/${gallery.id}/review-links`, {
      label: 'Director',
    });

    // Before any review: no totals, no filter.
    await owner.page.goto(`/galleries/${gallery.id}`);
    await owner.page.getByRole('heading', { name: 'Harbour Sheds' }).waitFor();
    await tiles(owner.page).first().waitFor();
    expect(await owner.page.getByTestId('feedback-summary').count()).toBe(0);

    // The director reviews on a phone, in a second browser context: Yes, No and a comment.
    const phone = await browser().newContext({ baseURL, viewport: MOBILE, hasTouch: true });
    const review = await phone.newPage();
    await review.goto(link.url.replace(/^https?:\/\/[^/]+/, ''));
    await review.getByRole('heading', { name: 'Harbour Sheds' }).waitFor();
    const picks = (name: string) => review.getByRole('group', { name: `Your pick for ${name}` });
    await picks('shed-door.jpg').getByRole('button', { name: 'Yes' }).click();
    const nameDialog = review.getByRole('dialog', { name: 'What is your name?' });
    await nameDialog.getByLabel('Your name').fill('Dana Director');
    await nameDialog.getByRole('button', { name: 'Continue' }).click();
    await expect
      .poll(() => picks('shed-door.jpg').getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed'), {
        timeout: 20_000,
      })
      .toBe('true');
    await picks('shed-roof.jpg').getByRole('button', { name: 'No' }).click();
    await expect
      .poll(() => picks('shed-roof.jpg').getByRole('button', { name: 'No' }).getAttribute('aria-pressed'), {
        timeout: 20_000,
      })
      .toBe('true');
    await review.getByRole('button', { name: 'Open shed-door.jpg' }).click();
    const reviewBox = review.getByTestId('review-lightbox');
    await reviewBox.getByLabel('Comment on shed-door.jpg').fill('This door, at dawn.');
    await reviewBox.getByRole('button', { name: 'Send comment' }).click();
    await reviewBox.getByText('Comments (1)').waitFor();
    await phone.close();

    // The owner's open gallery: badges and totals arrive live.
    const totals = owner.page.getByTestId('feedback-totals');
    await expect
      .poll(() => totals.textContent(), { timeout: 20_000 })
      .toBe('1 picked · 1 rejected · 1 comment · 1 unreviewed');
    await owner.page.getByRole('button', { name: 'Open shed-door.jpg: 1 Yes, 1 comment' }).waitFor();
    await owner.page.getByRole('button', { name: 'Open shed-roof.jpg: 1 No' }).waitFor();
    await owner.page.getByRole('button', { name: 'Open shed-yard.jpg', exact: true }).waitFor();
    expect(await seriousViolations(owner.page)).toEqual([]);
    await screenshot(owner.page, 'feedback-owner-grid-desktop');

    // "Show what the director said Yes to", kept in the address across a reload.
    const filter = owner.page.getByRole('group', { name: 'Show photos by feedback' });
    await filter.getByText('Picked', { exact: true }).click();
    await expect.poll(() => new URL(owner.page.url()).searchParams.get('feedback'), { timeout: 20_000 }).toBe('picked');
    await expect.poll(() => tiles(owner.page).count(), { timeout: 20_000 }).toBe(1);
    await owner.page.reload();
    await tiles(owner.page).first().waitFor();
    expect(await tiles(owner.page).count()).toBe(1);
    await owner.page.getByRole('button', { name: /^Open shed-door\.jpg/ }).waitFor();
    expect(await filter.getByRole('radio', { name: 'Picked' }).isChecked()).toBe(true);
    await filter.getByText('Unreviewed', { exact: true }).click();
    await owner.page.getByRole('button', { name: 'Open shed-yard.jpg', exact: true }).waitFor();
    await expect.poll(() => tiles(owner.page).count(), { timeout: 20_000 }).toBe(1);
    await filter.getByText('Commented', { exact: true }).click();
    await owner.page.getByRole('button', { name: /^Open shed-door\.jpg/ }).waitFor();
    await filter.getByText('Maybe', { exact: true }).click();
    await owner.page.getByText('No photos match this filter').waitFor();

    // The same on a phone: no sideways scrolling, axe clean.
    await owner.page.setViewportSize(MOBILE);
    await filter.getByText('Rejected', { exact: true }).click();
    await owner.page.getByRole('button', { name: /^Open shed-roof\.jpg/ }).waitFor();
    await expect.poll(() => tiles(owner.page).count(), { timeout: 20_000 }).toBe(1);
    expect(await noOverflow(owner.page)).toBe(true);
    expect(await seriousViolations(owner.page)).toEqual([]);
    await screenshot(owner.page, 'feedback-owner-filter-phone');
    await filter.getByText('All', { exact: true }).click();
    await expect.poll(() => tiles(owner.page).count(), { timeout: 20_000 }).toBe(3);
    expect(new URL(owner.page.url()).searchParams.get('feedback')).toBeNull();

    // A new gallery of the picks opens with exactly the picked photo.
    await owner.page.setViewportSize(DESKTOP);
    await owner.page.getByRole('button', { name: 'New gallery from picks' }).click();
    await owner.page.getByRole('heading', { name: 'Harbour Sheds – picks' }).waitFor();
    await tiles(owner.page).first().waitFor();
    expect(await tiles(owner.page).count()).toBe(1);
    await owner.page.getByRole('button', { name: 'Open shed-door.jpg', exact: true }).waitFor();

    // A crew member: the owner's gallery is under "Shared with you", saying by whom and through
    // which project, with the truth in its badge; their own gallery stays under "Your galleries".
    const member = await signedInPage(browser(), { path: '/', viewport: MOBILE, user: newUser('Ben Crew') });
    await shareWithCrew(owner, member, gallery.id, { projectName: 'Harbour Night Shoot' });
    await post(member.context.request, '/api/galleries', { name: 'Ben scouting' });
    expect((await member.context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
    await member.page.goto('/galleries');
    const shared = member.page.getByTestId('galleries-shared');
    await shared.getByRole('heading', { name: 'Shared with you' }).waitFor();
    const card = shared.getByTestId('gallery-card').filter({ hasText: 'Harbour Sheds' });
    await card.getByTestId('shared-by').getByText('Olga Ortega').waitFor();
    expect(await card.getByTestId('shared-by').textContent()).toBe('Shared by Olga Ortega via Harbour Night Shoot');
    await card.getByText('View only', { exact: true }).waitFor();
    expect(await card.getByText('Private', { exact: true }).count()).toBe(0);
    const own = member.page.getByTestId('galleries-own');
    await own.getByRole('heading', { name: 'Your galleries' }).waitFor();
    await own.getByTestId('gallery-card').filter({ hasText: 'Ben scouting' }).getByText('Private').waitFor();
    expect(await own.getByText('Harbour Sheds').count()).toBe(0);
    expect(await noOverflow(member.page)).toBe(true);
    expect(await seriousViolations(member.page)).toEqual([]);
    await screenshot(member.page, 'feedback-shared-with-you-phone-dark');
    await member.page.setViewportSize(DESKTOP);
    expect(await seriousViolations(member.page)).toEqual([]);
    await screenshot(member.page, 'feedback-shared-with-you-desktop-dark');

    // The owner's own card now says Shared; the member, a reader, sees the totals too.
    await owner.page.goto('/galleries');
    const ownerCard = owner.page
      .getByTestId('galleries-own')
      .getByTestId('gallery-card')
      .filter({ has: owner.page.getByRole('heading', { name: 'Harbour Sheds', exact: true }) });
    await ownerCard.getByText('Shared', { exact: true }).waitFor();
    await member.page.goto(`/galleries/${gallery.id}`);
    await expect
      .poll(() => member.page.getByTestId('feedback-totals').textContent(), { timeout: 20_000 })
      .toBe('1 picked · 1 rejected · 1 comment · 1 unreviewed');
    expect(await seriousViolations(member.page)).toEqual([]);
    await screenshot(member.page, 'feedback-member-gallery-dark');
    await member.context.close();
    await owner.context.close();
  }, 180_000);
});

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { MOBILE, screenshot, sharedBrowser, signedInPage, post, shareWithCrew } from './support.ts';

// Issue #16: what a crew member with Edit Access sees, ids in addresses, the share dialog's
// starting permission and what Upload Photos takes.

const browser = sharedBrowser();

const globalId = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');

async function menuItems(page: Page, galleryName: string) {
  await page.getByRole('button', { name: `Actions for ${galleryName}` }).click();
  const items = page.getByRole('menuitem');
  await items.first().waitFor();
  const names = await items.allInnerTexts();
  await page.keyboard.press('Escape');
  return names.map((n) => n.trim());
}

describe('a crew member with Edit Access', () => {
  it('sees no Share, Delete or Revoke; old raw-id links redirect; the share dialog starts at View Only', async () => {
    const owner = await signedInPage(browser(), { path: '/galleries' });
    const member = await signedInPage(browser(), { path: '/' });
    const gallery = await post<{ id: string }>(owner.context.request, '/api/galleries', { name: 'Harbour Cranes' });
    await shareWithCrew(owner, member, gallery.id, { projectName: 'Night Shift', permission: 'write' });

    // The member's galleries list: the card offers viewing and editing only.
    const { page } = member;
    await page.goto('/galleries');
    await page.getByRole('heading', { name: 'Harbour Cranes' }).waitFor();
    expect(await menuItems(page, 'Harbour Cranes')).toEqual(['View Gallery', 'Edit Gallery']);
    await page.setViewportSize(MOBILE);
    await page.getByRole('button', { name: 'Actions for Harbour Cranes' }).click();
    await page.getByRole('menuitem', { name: 'Edit Gallery' }).waitFor();
    await screenshot(page, 'gallery-permissions-member-menu-phone');
    await page.keyboard.press('Escape');

    // An old link with the raw uuid lands on the gallery, its address now the global id.
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('heading', { name: 'Harbour Cranes' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/galleries/${encodeURIComponent(globalId('Gallery', gallery.id))}`);
    await page.getByRole('button', { name: 'Upload Photos', exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Share Gallery' }).count()).toBe(0);

    // Upload Photos takes photos and videos only, and says so in the spec's words.
    await page
      .getByLabel('Upload photos to this gallery')
      .setInputFiles({ name: 'call-sheet.txt', mimeType: 'text/plain', buffer: Buffer.from('call at 6') });
    await page.getByText('Some files were rejected:').waitFor();
    await page.getByText('File type must be one of .png, .jpg, .jpeg, .gif, .webp, .mp4, .mov, .avi, .mkv').waitFor();
    expect(await page.getByTestId('upload-item').count()).toBe(0);
    await screenshot(page, 'gallery-permissions-member-gallery-phone');
    expect(await seriousViolations(page)).toEqual([]);

    // The owner's share dialog: every project they belong to, View Only at each start.
    const other = await post<{ id: string }>(owner.context.request, '/api/projects', { name: 'Day Unit' });
    expect(other.id).toBeTruthy();
    const o = owner.page;
    await o.goto(`/galleries/${gallery.id}`);
    await o.getByRole('heading', { name: 'Harbour Cranes' }).waitFor();
    await o.getByRole('button', { name: 'Share Gallery' }).click();
    const share = o.getByRole('dialog', { name: 'Share Gallery' });
    await share.getByRole('button', { name: 'View Only' }).waitFor();
    await share.getByRole('button', { name: 'Revoke share with Night Shift' }).waitFor();
    await share.getByRole('button', { name: 'Select a project' }).click();
    await o.getByRole('option', { name: 'Day Unit (Campaign)' }).click();
    await share.getByRole('button', { name: 'View Only' }).click();
    await o.getByRole('option', { name: 'Edit Access' }).click();
    await share.getByRole('button', { name: 'Share Gallery' }).click();
    await o.getByText('Gallery has been shared with the project successfully.').waitFor();
    // After the share: View Only again, so the next one cannot grant Edit Access unseen.
    await share.getByRole('button', { name: 'View Only' }).waitFor();
    await share.getByRole('button', { name: 'Close' }).click();
    await share.waitFor({ state: 'detached' });
    await o.getByRole('button', { name: 'Share Gallery' }).click();
    await share.getByRole('button', { name: 'View Only' }).waitFor();
    expect(await seriousViolations(o)).toEqual([]);
    await o.evaluate(() => document.documentElement.classList.add('dark'));
    await screenshot(o, 'gallery-permissions-share-dialog-dark');

    // The member's galleries list at desktop width, for the record.
    await page.goto('/galleries');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('heading', { name: 'Harbour Cranes' }).waitFor();
    await screenshot(page, 'gallery-permissions-member-list-desktop');
    await owner.context.close();
    await member.context.close();
  });
});

/** Waits for the File Manager to show the folder, or its error screen (so a crash fails at once). */
async function inFolderOrCrashed(page: Page, name: string) {
  const opened = page.getByRole('navigation', { name: 'Breadcrumb' }).getByText(name);
  await opened.or(page.getByText('Something went wrong')).first().waitFor({ timeout: 90_000 });
}

describe('ids in addresses', () => {
  it('opens a dashboard folder in the File Manager, and redirects an old raw-uuid folder link', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/' });
    const folder = await post<{ id: string }>(context.request, '/api/folders', { name: 'Mill Interiors' });
    await page.goto('/');
    await page.getByRole('link', { name: /Mill Interiors/ }).click();
    await page.getByRole('heading', { name: 'File Manager' }).waitFor();
    await inFolderOrCrashed(page, 'Mill Interiors');
    await screenshot(page, 'gallery-permissions-dashboard-folder');
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('folder')).toBe(globalId('Folder', folder.id));

    await page.goto(`/files?folder=${folder.id}`);
    await inFolderOrCrashed(page, 'Mill Interiors');
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    await expect
      .poll(() => new URL(page.url()).searchParams.get('folder'), { timeout: 30_000 })
      .toBe(globalId('Folder', folder.id));
    await context.close();
  });
});

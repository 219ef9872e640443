import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { emptyScreen, MOBILE, requestsOf, screenshot, sharedBrowser, signedInContext } from './support.ts';

const browser = sharedBrowser();

async function createGallery(
  page: Page,
  fields: { name: string; location?: string; tags?: string; description?: string },
) {
  await page.getByRole('button', { name: 'New Gallery' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Gallery' });
  await dialog.getByLabel('Gallery Name').fill(fields.name);
  if (fields.description) await dialog.getByLabel('Description').fill(fields.description);
  if (fields.location) await dialog.getByLabel('Location').fill(fields.location);
  if (fields.tags) await dialog.getByLabel('Tags').fill(fields.tags);
  await dialog.getByRole('button', { name: 'Create Gallery' }).click();
  await page.getByText('Gallery created successfully!').waitFor();
  await dialog.waitFor({ state: 'detached' });
}

const cardNames = (page: Page) => page.getByTestId('gallery-card').locator('h3').allTextContents();

describe('galleries', () => {
  it('creates, searches, sorts, edits, shares and deletes a gallery', async () => {
    const { context, page } = await emptyScreen(browser(), '/galleries', 'Photo Galleries', 'No galleries yet');
    await screenshot(page, 'galleries-empty-desktop');

    // The name is required.
    await page.getByRole('button', { name: 'Create Your First Gallery' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Create Gallery' }).click();
    await page.getByText('Gallery name is required.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await createGallery(page, {
      name: 'Warehouse District',
      location: 'Brooklyn',
      tags: 'brick, loft, industrial, night',
    });
    await createGallery(page, { name: 'Alpine Cabin', location: 'Zermatt', tags: 'snow' });
    await page.getByTestId('gallery-card').nth(1).waitFor();
    expect(await cardNames(page)).toEqual(['Alpine Cabin', 'Warehouse District']);
    const warehouse = page.getByTestId('gallery-card').filter({ hasText: 'Warehouse District' });
    expect(await warehouse.getByText('+1').isVisible()).toBe(true);
    expect(await warehouse.getByText('Private').isVisible()).toBe(true);
    expect(await warehouse.getByTestId('photo-count').textContent()).toBe('0 photos');
    await screenshot(page, 'galleries-desktop');

    // Sort by name, then search by location.
    await page.getByRole('button', { name: 'Most Recent' }).click();
    await page.getByRole('option', { name: 'Name' }).click();
    await page.waitForURL(/sort=name/);
    await expect.poll(() => cardNames(page)).toEqual(['Alpine Cabin', 'Warehouse District']);
    await page.getByLabel('Search galleries').fill('brooklyn');
    await expect.poll(() => cardNames(page)).toEqual(['Warehouse District']);
    await page.getByLabel('Search galleries').fill('nothing like this');
    await page.getByText('No galleries match your search').waitFor();
    await page.getByLabel('Search galleries').fill('');
    await expect.poll(() => cardNames(page)).toHaveLength(2);

    // Edit really edits.
    await page.getByRole('button', { name: 'Actions for Warehouse District' }).click();
    await page.getByRole('menuitem', { name: 'Edit Gallery' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Gallery' });
    expect(await edit.getByLabel('Location').inputValue()).toBe('Brooklyn');
    await edit.getByLabel('Gallery Name').fill('Warehouse District at Night');
    await edit.getByRole('switch').click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Gallery updated successfully!').waitFor();
    const renamed = page.getByTestId('gallery-card').filter({ hasText: 'Warehouse District at Night' });
    await renamed.getByText('Public').waitFor();

    // Share: validation, a new project made inline, then the share and its revocation.
    await page.getByRole('button', { name: 'Actions for Warehouse District at Night' }).click();
    await page.getByRole('menuitem', { name: 'Share Gallery' }).click();
    const share = page.getByRole('dialog', { name: 'Share Gallery' });
    await share.getByRole('button', { name: 'Share Gallery' }).click();
    await page.getByText('Please select a project to share with.').waitFor();
    await share.getByRole('tab', { name: 'Create Project' }).click();
    await share.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Project name is required.').waitFor();
    await share.getByLabel('Project Name').fill('Night Shoot');
    await share.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Project Created').waitFor();
    // Back on the share tab with the new project chosen.
    await share.getByRole('button', { name: 'Night Shoot (Campaign)' }).waitFor();
    await share.getByRole('button', { name: 'View Only' }).click();
    await page.getByRole('option', { name: 'Edit Access' }).click();
    await share.getByRole('button', { name: 'Share Gallery' }).click();
    await page.getByText('Gallery has been shared with the project successfully.').waitFor();
    const row = share.getByTestId('share-row');
    await row.getByText('Edit Access').waitFor();
    await screenshot(page, 'galleries-share-dialog');
    await row.getByRole('button', { name: 'Revoke share with Night Shoot' }).click();
    await page.getByText('Share Revoked').waitFor();
    await expect.poll(() => share.getByTestId('share-row').count()).toBe(0);
    await page.keyboard.press('Escape');

    // Delete with confirmation.
    await page.getByRole('button', { name: 'Actions for Alpine Cabin' }).click();
    await page.getByRole('menuitem', { name: 'Delete Gallery' }).click();
    await page.getByText('Are you sure you want to delete this gallery? This action cannot be undone.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Gallery deleted successfully!').waitFor();
    await expect.poll(() => cardNames(page)).toEqual(['Warehouse District at Night']);

    await page.setViewportSize(MOBILE);
    await screenshot(page, 'galleries-mobile');

    // A card opens its gallery.
    await page.getByRole('link', { name: 'Open gallery Warehouse District at Night' }).click();
    // Addresses carry the gallery's global id, never its raw uuid.
    await page.waitForURL(/\/galleries\/[^/?]+$/);
    expect(page.url()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    await page.getByRole('tab', { name: /^Photos/ }).waitFor();
    await context.close();
  });

  it('does not read the list again when the live connection opens and nothing changed meanwhile', async () => {
    const { context } = await signedInContext(browser());
    const page = await context.newPage();
    // From the page's start: the page carries the list, so no request reads it, before or after.
    const asked = requestsOf(page, (request) =>
      request.url().endsWith('/graphql') ? (request.postData() ?? '') : undefined,
    );
    const listening = new Promise<void>((resolve) => {
      page.on('websocket', (socket) =>
        socket.on('framereceived', ({ payload }) => {
          if (String(payload).includes('"listening"')) resolve();
        }),
      );
    });
    await page.goto('/galleries');
    await page.getByText('No galleries yet').waitFor();
    await listening;
    // What `listening` would set off (the screen's loader run again) starts at once.
    await page.waitForTimeout(1_000);
    // The page's answers were read after the last change to what this person may see: the server
    // says so on `listening` (readAgain: false), and the screen keeps them.
    expect(asked.filter((body) => body.includes('"sort"'))).toEqual([]);
    await context.close();
  });
});

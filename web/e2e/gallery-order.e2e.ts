import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { sharedBrowser, signedInPage, post, shareWithCrew } from './support.ts';

// Issue 53: the order of a gallery's photos, kept on the gallery for everyone: a sort chosen from
// the Order select, a photo moved in the lightbox or dragged in the grid, and what a member who
// may only view it sees.

const browser = sharedBrowser();

/** The photos' names as the grid shows them, first to last. */
function gridOrder(page: Page) {
  return page
    .getByTestId('photo-tile')
    .evaluateAll((tiles) => tiles.map((tile) => (tile.getAttribute('aria-label') ?? '').replace(/^Open /, '')));
}

describe('the order of a gallery’s photos', () => {
  it('is sorted, moved in the lightbox and dragged in the grid by its owner, and seen by a member who may only view it', {
    timeout: 180_000,
  }, async () => {
    const owner = await signedInPage(browser(), { path: '/galleries' });
    const member = await signedInPage(browser(), { path: '/' });
    const gallery = await post<{ id: string }>(owner.context.request, '/api/galleries', { name: 'Lighthouse Keepers' });
    // Added c, a, b: neither the name order nor the order they were added in.
    const ids: Record<string, string> = {};
    for (const [name, colour] of [
      ['c.jpg', '#b91c1c'],
      ['a.jpg', '#15803d'],
      ['b.jpg', '#1d4ed8'],
    ] as const) {
      ids[name] = (await uploadThroughApi(owner.context.request, name, await makePhoto({ colour }))).id;
    }
    await post(owner.context.request, `/api/galleries/${gallery.id}/items`, {
      fileIds: ['c.jpg', 'a.jpg', 'b.jpg'].map((name) => ids[name]),
    });
    await shareWithCrew(owner, member, gallery.id, { projectName: 'Coastal Unit', permission: 'read' });

    const { page } = owner;
    await page.goto(`/galleries/${gallery.id}`);
    await page.getByRole('heading', { name: 'Lighthouse Keepers' }).waitFor();
    const order = page.getByRole('combobox', { name: 'Order' });
    await page.getByRole('button', { name: 'Open b.jpg' }).waitFor();
    expect(await gridOrder(page)).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    await order.selectOption({ label: 'Name, A to Z' });
    await expect.poll(() => gridOrder(page)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);

    // Move earlier in the lightbox: b before a, in the custom order from now on, and the lightbox
    // still on b, its buttons still under the keyboard.
    await page.getByRole('button', { name: 'Open b.jpg' }).click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.getByRole('heading', { name: 'b.jpg' }).waitFor();
    await lightbox.getByText('2 of 3').waitFor();
    // Anything the page reads meanwhile is held, as a slow network would: the move's own answer
    // is all it needs to show b first (reading the gallery again showed a at b's new place).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/graphql', async (route) => {
      if (!route.request().postData()?.includes('beforeFileId')) await held;
      await route.fallback();
    });
    await lightbox.getByRole('button', { name: 'Move earlier' }).click();
    await lightbox.getByText('1 of 3').waitFor();
    expect(await lightbox.getByRole('heading', { level: 2 }).textContent()).toBe('b.jpg');
    // Behind the lightbox (inert while it is open, so the Order select is out of reach), the grid follows.
    await expect.poll(() => gridOrder(page)).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);
    release();
    await page.unroute('**/graphql');
    // The focus stayed on the button (now at the first place, so it says it cannot go further).
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Move earlier');
    expect(await lightbox.getByRole('button', { name: 'Move earlier' }).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Move later');
    await page.keyboard.press('Escape');
    await lightbox.waitFor({ state: 'detached' });
    expect(await order.inputValue()).toBe('manual');
    expect(await order.locator('option:checked').textContent()).toBe('Custom order');

    await page.reload();
    await page.getByRole('button', { name: 'Open b.jpg' }).waitFor();
    expect(await gridOrder(page)).toEqual(['b.jpg', 'a.jpg', 'c.jpg']);
    expect(await order.inputValue()).toBe('manual');

    // Dragged in the grid, in a sorted gallery: the photo goes where it was dropped and the order
    // people saw, with it, becomes the custom one.
    await order.selectOption({ label: 'Name, Z to A' });
    await expect.poll(() => gridOrder(page)).toEqual(['c.jpg', 'b.jpg', 'a.jpg']);
    const centre = async (name: string) => {
      const box = await page.getByRole('button', { name: `Open ${name}` }).boundingBox();
      if (!box) throw new Error(`${name} is not on screen`);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const from = await centre('a.jpg');
    const to = await centre('c.jpg');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 20, from.y, { steps: 5 });
    await page.mouse.move(to.x, to.y, { steps: 20 });
    await page.mouse.up();
    await expect.poll(() => gridOrder(page)).toEqual(['a.jpg', 'c.jpg', 'b.jpg']);
    await expect.poll(() => order.inputValue()).toBe('manual');
    // The drop opened nothing.
    expect(await page.getByTestId('lightbox').count()).toBe(0);

    // From the keyboard, with the photo's Move button: Space, an arrow, Space.
    const handle = page.getByRole('button', { name: 'Move c.jpg' });
    await handle.focus();
    // Out of sight until it has the focus (the mouse drags the photo itself), then on the photo.
    expect((await handle.boundingBox())?.width).toBeGreaterThan(10);
    await page.keyboard.press('Space');
    await page.getByText('Picked up c.jpg, at place 2 of 3.').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByText('c.jpg would go to place 3 of 3.').waitFor();
    await page.keyboard.press('Space');
    await expect.poll(() => gridOrder(page)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);

    await page.reload();
    await page.getByRole('button', { name: 'Open b.jpg' }).waitFor();
    await expect.poll(() => gridOrder(page)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(await order.inputValue()).toBe('manual');
    expect(await seriousViolations(page)).toEqual([]);

    // The member who may only view the gallery: the order's name, the same photos in the same
    // order, and nothing to move them with.
    const viewer = member.page;
    await viewer.goto(`/galleries/${gallery.id}`);
    await viewer.getByRole('heading', { name: 'Lighthouse Keepers' }).waitFor();
    await viewer.getByText('Order: Custom order').waitFor();
    expect(await viewer.getByRole('combobox', { name: 'Order' }).count()).toBe(0);
    await viewer.getByRole('button', { name: 'Open b.jpg' }).waitFor();
    expect(await gridOrder(viewer)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
    expect(await viewer.getByRole('button', { name: /^Move / }).count()).toBe(0);
    await viewer.getByRole('button', { name: 'Open a.jpg' }).click();
    const viewerBox = viewer.getByTestId('lightbox');
    await viewerBox.getByRole('heading', { name: 'a.jpg' }).waitFor();
    expect(await viewerBox.getByRole('button', { name: /^Move / }).count()).toBe(0);
    await viewer.keyboard.press('Escape');
    await viewerBox.waitFor({ state: 'detached' });

    await owner.context.close();
    await member.context.close();
  });
});

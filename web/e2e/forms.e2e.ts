import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { assistantOpen, emptyScreen, MOBILE, screenshot, sharedBrowser } from './support.ts';

// Issue 53, item 10: a form says what is wrong by the field, never only in a toast over its buttons,
// and stops text at the length the API takes.

const browser = sharedBrowser();

describe('New Gallery says what is wrong by its fields', () => {
  it('blank and over-long names get a message by the field, no toast, no uncaught error', async () => {
    const { context, page } = await emptyScreen(browser(), '/galleries', 'Photo Galleries', 'No galleries yet');
    await page.setViewportSize(MOBILE);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.getByRole('button', { name: 'New Gallery' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Gallery' });
    await dialog.getByRole('button', { name: 'Create Gallery' }).click();
    const name = dialog.getByLabel('Gallery Name');
    await dialog.getByText('Gallery name is required.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    // Said in the form: no toast that could cover the Create button.
    expect(await page.locator('[aria-live="polite"]').filter({ hasText: 'Gallery name is required.' }).count()).toBe(0);

    // Over-long: the field stops at the API's 200 characters and counts down near the end.
    await name.fill(`Location_${'X'.repeat(300)}`);
    expect(await name.inputValue()).toHaveLength(200);
    await dialog.getByText('200/200 characters').waitFor();
    expect(await dialog.getByText('Gallery name is required.').count()).toBe(0);
    const location = dialog.getByLabel('Location');
    await location.fill('L'.repeat(600));
    expect(await location.inputValue()).toHaveLength(500);
    await screenshot(page, 'gallery-form-limits-mobile');
    expect(await seriousViolations(page), 'gallery form with messages, phone').toEqual([]);
    await dialog.getByRole('button', { name: 'Create Gallery' }).click();
    await page.getByText('Gallery created successfully!').waitFor();

    // Delete names the gallery: cut on screen, whole for screen readers.
    const card = page.getByTestId('gallery-card').first();
    await card.getByRole('button', { name: /^Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Delete Gallery' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Gallery' });
    const said = await confirm.evaluate((el) => {
      const id = el.getAttribute('aria-describedby');
      return id ? document.getElementById(id)?.textContent : null;
    });
    expect(said).toContain(`Location_${'X'.repeat(191)}`);
    const named = confirm.locator('span[title^="Location_"]');
    const box = await named.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.scroll).toBeGreaterThan(box.client);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'gallery-delete-named-mobile');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the assistant says why it refused a message', () => {
  it('stops at 4,000 characters with a counter, and shows the server reason', async () => {
    const { context, page } = await assistantOpen(browser());
    await page.getByRole('button', { name: 'Expand assistant' }).click();
    const box = page.locator('#assistant-message');
    await box.fill('a'.repeat(4100));
    expect(await box.inputValue()).toHaveLength(4000);
    await page.getByText('4000/4000').waitFor();
    // Whatever reached the server too long (an older tab, a paste around the limit): its reason shows.
    await page.route('**/api/ai/chat', async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>;
      await route.continue({ postData: JSON.stringify({ ...body, message: 'b'.repeat(4001) }) });
    });
    await box.press('Enter');
    await page.getByText('Message is too long (4000 characters at most).').waitFor();
    expect(await page.getByText('Failed to process your message. Please try again.').count()).toBe(0);
    await context.close();
  });
});

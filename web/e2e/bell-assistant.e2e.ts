import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, signedInPage } from './support.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('notifications bell', () => {
  it('shows live unread notifications, marks one read on click, clears all', async () => {
    const { context, page } = await signedInPage(browser, { path: '/' });
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    await bell.waitFor();
    expect(await page.getByTestId('notification-badge').count()).toBe(0);
    await bell.click();
    await page.getByText('No notifications yet').waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('No notifications yet').waitFor({ state: 'detached' });
    expect(await bell.evaluate((el) => el === document.activeElement)).toBe(true);

    // Overdue tasks make due reminders (every second in this run); the badge updates live.
    const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString();
    for (const title of ['Return the van keys', 'Send the location release']) {
      const created = await context.request.post('/api/tasks', {
        data: { title, priority: 'medium', dueDate: lastWeek },
      });
      expect(created.status()).toBeLessThan(300);
    }
    await page.getByTestId('notification-badge').filter({ hasText: /^2$/ }).waitFor({ timeout: 20_000 });

    await bell.click();
    const panel = page.getByRole('button', { name: /Return the van keys/ });
    await panel.waitFor();
    await screenshot(page, 'notifications-desktop');
    await panel.click();
    await page.waitForURL(/\/tasks\?task=/);
    await page.getByTestId('notification-badge').filter({ hasText: /^1$/ }).waitFor();

    await bell.click();
    await page.getByRole('button', { name: 'Clear all' }).click();
    await page.getByText('Notifications cleared').waitFor();
    await page.getByTestId('notification-badge').waitFor({ state: 'detached' });
    const stored = (await (await context.request.get('/api/notifications')).json()) as { isRead: boolean }[];
    expect(stored).toHaveLength(2);
    expect(stored.every((n) => n.isRead)).toBe(true);
    await context.close();
  });
});

describe('assistant', () => {
  it('chats with the assistant, which can create a task', async () => {
    const { context, page } = await signedInPage(browser, { path: '/tasks' });
    await page.getByRole('button', { name: 'Open AI assistant' }).click();
    await page.getByRole('button', { name: 'Search Files' }).waitFor();
    await screenshot(page, 'assistant-collapsed-desktop');
    await page.getByRole('button', { name: 'Expand assistant' }).click();
    await page.getByText('Start a conversation with the AI assistant').waitFor();
    const box = page.locator('#assistant-message');
    const send = page.getByRole('button', { name: 'Send message' });
    expect(await send.isDisabled()).toBe(true);

    await box.fill('create a task to scout the warehouse tomorrow, high priority');
    await box.press('Shift+Enter');
    expect(await box.inputValue()).toContain('\n');
    await box.fill('create a task to scout the warehouse tomorrow, high priority');
    await box.press('Enter');
    const reply = page.locator('[data-role="assistant"]');
    await reply.first().waitFor();
    await page.waitForFunction(() => {
      const bubble = document.querySelector('[data-role="assistant"]');
      return Boolean(bubble?.textContent?.trim());
    });
    await screenshot(page, 'assistant-chat-desktop');
    const tasks = (await (await context.request.get('/api/tasks')).json()) as { title: string; priority: string }[];
    expect(tasks.some((t) => /scout the warehouse/i.test(t.title) && t.priority === 'high')).toBe(true);
    await context.close();
  });
});

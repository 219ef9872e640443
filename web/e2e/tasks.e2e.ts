import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, MOBILE, screenshot, signedInPage } from './support.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

async function createTask(page: Page, title: string, due?: Date) {
  await page.getByRole('button', { name: 'New Task' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Task' });
  await dialog.getByLabel('Task Title').fill(title);
  if (due) await dialog.getByLabel('Due Date (Optional)').fill(localInput(due));
  await dialog.getByRole('button', { name: 'Create Task' }).click();
  await page.getByText('Task created successfully!').waitFor();
  await dialog.waitFor({ state: 'detached' });
}

describe('tasks', () => {
  it('creates tasks with and without a due date, validates the title, completes one', async () => {
    const { context, page } = await signedInPage(browser, { path: '/tasks' });
    await page.getByRole('heading', { name: 'Task Management' }).waitFor();
    await page.getByText('No pending tasks').waitFor();
    await screenshot(page, 'tasks-empty-desktop');

    // Validation: a blank title is refused in the browser and nothing is sent.
    await page.getByRole('button', { name: 'New Task' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Task' });
    expect(await dialog.getByLabel('Priority').textContent()).toContain('Medium');
    await dialog.getByLabel('Task Title').fill('   ');
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await page.getByText('Task title is required.').waitFor();
    expect(await dialog.getByLabel('Task Title').isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await createTask(page, 'Scout the harbour warehouse');
    const plain = page.getByRole('article', { name: 'Scout the harbour warehouse' });
    await plain.waitFor();
    expect(await plain.textContent()).toContain('Medium');
    expect(await plain.textContent()).not.toMatch(/Due|overdue/);

    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(10, 0, 0, 0);
    await createTask(page, 'Book the rooftop permit', tomorrow);
    await page.getByRole('article', { name: 'Book the rooftop permit' }).getByText('Due tomorrow').waitFor();

    const lastWeek = new Date();
    lastWeek.setDate(lastWeek.getDate() - 3);
    await createTask(page, 'Return the drone batteries', lastWeek);
    await page.getByRole('article', { name: 'Return the drone batteries' }).getByText('Overdue by 3 days').waitFor();
    await page.getByRole('tab', { name: 'Overdue (1)' }).waitFor();
    await page.getByRole('tab', { name: 'Pending (3)' }).waitFor();
    await screenshot(page, 'tasks-desktop');

    // The server has them (reload reads them back).
    await page.reload();
    await page.getByRole('tab', { name: 'Pending (3)' }).waitFor();
    const stored = await context.request.get('/api/tasks');
    const tasks = (await stored.json()) as { title: string; dueDate: string | null }[];
    expect(tasks.find((t) => t.title === 'Scout the harbour warehouse')?.dueDate).toBeNull();
    expect(tasks.find((t) => t.title === 'Book the rooftop permit')?.dueDate).toBe(tomorrow.toISOString());

    await page.getByRole('button', { name: 'Mark Complete: Scout the harbour warehouse' }).click();
    await page.getByText('Task completed!').waitFor();
    await page.getByRole('tab', { name: 'Pending (2)' }).waitFor();
    await page.getByRole('tab', { name: 'Completed (1)' }).click();
    const done = page.getByRole('article', { name: 'Scout the harbour warehouse' });
    await done.getByText(/^Completed /).waitFor();

    await page.reload();
    await page.getByRole('tab', { name: 'Completed (1)' }).click();
    await page.getByRole('article', { name: 'Scout the harbour warehouse' }).waitFor();

    await page.setViewportSize(MOBILE);
    await screenshot(page, 'tasks-mobile');
    await context.close();
  });
});

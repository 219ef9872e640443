import { expect, it } from 'vitest';
import { ownServer, sharedBrowser, signedInPage } from './support.ts';

// The server restarts (SIGTERM, as a deploy or a supervisor does) under an open tab: the server stops
// at once and cleanly, and the tab's bell catches up with what happened meanwhile and hears what
// happens after, without a reload.
// Due reminders every second, so a notification follows an overdue task at once.
const server = ownServer({ DUE_REMINDER_INTERVAL_SECONDS: '1' });
const browser = sharedBrowser();

it('the bell catches up after a server restart under an open tab, without a reload', async () => {
  const { context, page } = await signedInPage(browser(), { server: server().baseURL, path: '/' });
  const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
  await bell.waitFor();
  // The live streams are open once the count arrived (the badge is absent at 0); wait a moment
  // so both subscriptions are connected before the restart.
  await page.waitForTimeout(1000);
  expect(await page.getByTestId('notification-badge').count()).toBe(0);
  // Marks this document: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

  const overdue = async (title: string) => {
    const created = await context.request.post('/api/tasks', {
      data: { title, priority: 'medium', dueDate: new Date(Date.now() - 3 * 86_400_000).toISOString() },
    });
    expect(created.status()).toBeLessThan(300);
  };

  // With the tab's SSE streams open, the stop is quick and clean.
  const stopped = await server().restart();
  expect(stopped.exitCode).toBe(0);
  expect(stopped.stopMs).toBeLessThan(10_000);

  // Right after the restart, before the tab is back: a notification it cannot hear live.
  await overdue('Return the generator');
  await page.getByTestId('notification-badge').filter({ hasText: /^1$/ }).waitFor({ timeout: 45_000 });
  await bell.click();
  await page.getByRole('button', { name: /Return the generator/ }).waitFor();
  await page.keyboard.press('Escape');

  // And after it: heard live on the new connection.
  await overdue('Lock the unit base');
  await page.getByTestId('notification-badge').filter({ hasText: /^2$/ }).waitFor({ timeout: 30_000 });
  await bell.click();
  await page.getByRole('button', { name: /Lock the unit base/ }).waitFor();

  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await context.close();
}, 180_000);

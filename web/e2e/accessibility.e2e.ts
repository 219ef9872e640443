import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { DESKTOP, MOBILE, screenshot, sharedBrowser, signedInPage, visitorPage } from './support.ts';

// axe-core on every screen, desktop and phone: no serious or critical violations.

const browser = sharedBrowser();

const SCREENS: [string, string][] = [
  ['/', 'Dashboard'],
  ['/galleries', 'Photo Galleries'],
  ['/files', 'File Manager'],
  ['/tasks', 'Task Management'],
  ['/projects', 'Projects'],
  ['/settings', 'Account Settings'],
  ['/settings/security', 'Security'],
  ['/settings/account', 'Your data'],
  ['/no-such-page', '404 Page Not Found'],
];

describe('accessibility', () => {
  it('the landing and legal pages have no serious violations', async () => {
    const { context, page } = await visitorPage(browser());
    for (const path of ['/', '/privacy', '/terms']) {
      await page.goto(path);
      await page.getByRole('heading').first().waitFor();
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await context.close();
  });

  for (const [viewport, dark] of [
    [DESKTOP, false],
    [DESKTOP, true],
    [MOBILE, false],
    [MOBILE, true],
  ] as const) {
    it(`signed-in screens have no serious violations at ${viewport.width}px${dark ? ' in dark mode' : ''}`, async () => {
      const { context, page } = await signedInPage(browser(), { viewport });
      if (dark) {
        expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
      }
      for (const [path, heading] of SCREENS) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).first().waitFor();
        // Subscriptions keep a stream open, so wait for the skeletons to go instead of network idle.
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [data-testid="skeleton"]'));
        if (dark) await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await context.close();
    }, 180_000);
  }

  for (const [viewport, dark] of [
    [DESKTOP, false],
    [MOBILE, true],
  ] as const) {
    it(`an error message in a toast is readable on its own at ${viewport.width}px${dark ? ' in dark mode' : ''}`, async () => {
      const { context, page } = await signedInPage(browser(), { viewport });
      if (dark) {
        expect((await context.request.patch('/api/user/settings', { data: { darkMode: true } })).status()).toBe(200);
      }
      await page.goto('/tasks');
      await page.getByRole('button', { name: 'New Task' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New Task' });
      await dialog.getByLabel('Task Title').fill('   ');
      await dialog.getByRole('button', { name: 'Create Task' }).click();
      // Closed, the dialog no longer makes the rest of the page inert: the toast is judged as it
      // shows over the screen.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('alert').filter({ hasText: 'Task title is required.' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `toast-error-${viewport.width}${dark ? '-dark' : ''}`);
      await context.close();
    });
  }
});

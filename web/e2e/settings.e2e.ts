import { describe, expect, it } from 'vitest';
import { baseURL, DESKTOP, MOBILE, screenshot, sharedBrowser, signedInPage, signUpAndSignIn } from './support.ts';

const browser = sharedBrowser();

const isDark = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.classList.contains('dark'));

describe('settings', () => {
  it('saves Dark Mode and the names; both are read back after a reload', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/settings' });
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    const dark = page.getByRole('switch', { name: 'Dark Mode' });
    expect(await dark.getAttribute('aria-checked')).toBe('false');
    expect(await page.getByRole('switch', { name: 'Email Notifications' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('switch', { name: 'Auto Save' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByLabel('Email', { exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'settings-desktop');

    await dark.click();
    await page.getByRole('switch', { name: 'Push Notifications' }).click();
    await page.getByLabel('First Name').fill('Lucia');
    await page.getByLabel('Last Name').fill('Fernandez');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Your preferences have been saved successfully.').waitFor();
    expect(await isDark(page)).toBe(true);
    await page.getByRole('banner').getByText('Lucia Fernandez').waitFor();

    // The server has them: a fresh page with no local copy of the theme still comes up dark.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('switch', { name: 'Dark Mode', checked: true }).waitFor();
    expect(await page.getByRole('switch', { name: 'Push Notifications' }).getAttribute('aria-checked')).toBe('false');
    expect(await page.getByLabel('First Name').inputValue()).toBe('Lucia');
    expect(await isDark(page)).toBe(true);
    await page.goto('/tasks');
    await page.getByRole('heading', { name: 'Task Management' }).waitFor();
    expect(await isDark(page)).toBe(true);
    await screenshot(page, 'tasks-dark-desktop');
    await page.setViewportSize(MOBILE);
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Dark Mode', checked: true }).waitFor();
    await screenshot(page, 'settings-dark-mobile');

    const settings = await context.request.get('/api/user/settings');
    expect(await settings.json()).toMatchObject({ darkMode: true, pushNotifications: false, emailNotifications: true });
    await context.close();
  });

  it('refuses a blank first name by the field, and stops names at the 100 characters the API takes', async () => {
    const { context, page, user } = await signedInPage(browser(), { path: '/settings', viewport: MOBILE });
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    const first = page.getByLabel('First Name');
    const before = await first.inputValue();
    await first.fill('   ');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('First name is required.').waitFor();
    expect(await first.getAttribute('aria-invalid')).toBe('true');
    expect(await first.getAttribute('aria-describedby')).toBeTruthy();
    await page.waitForTimeout(300);
    expect(await page.getByText('Your preferences have been saved successfully.').count()).toBe(0);
    await screenshot(page, 'settings-blank-first-name-mobile');
    const me = (await (await context.request.get('/api/auth/user')).json()) as { firstName: string };
    expect(me.firstName).toBe(before);
    expect(me.firstName).toBe(user.name.split(' ')[0]);

    // A name too long for the API cannot be typed, and the field says how much is left.
    await first.fill('L'.repeat(150));
    expect(await first.inputValue()).toHaveLength(100);
    await page.getByText('100/100 characters').waitFor();
    await first.fill('Lucia');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Your preferences have been saved successfully.').waitFor();
    expect(await page.getByText('First name is required.').count()).toBe(0);
    await context.close();
  });
});

declare global {
  interface Window {
    /** What the page showed as system notifications (recorded by the spy below). */
    shownNotifications?: { title: string; body: string | undefined }[];
    /** Whether the tab pretends to have focus. */
    pretendFocus?: boolean;
    /** How often the page asked for the notifications permission. */
    permissionRequests?: number;
  }
}

describe('push notifications', () => {
  it('a notification arriving while the tab is in the background becomes a system notification, until the switch is off', async () => {
    const context = await browser().newContext({ baseURL, viewport: DESKTOP });
    await context.grantPermissions(['notifications'], { origin: baseURL });
    await context.addInitScript(() => {
      const Real = window.Notification;
      const shown: { title: string; body: string | undefined }[] = [];
      window.shownNotifications = shown;
      class Spy extends Real {
        constructor(title: string, options?: NotificationOptions) {
          shown.push({ title, body: options?.body });
          super(title, options);
        }
        static override get permission() {
          return Real.permission;
        }
        static override requestPermission = Real.requestPermission.bind(Real);
      }
      window.Notification = Spy;
      // A headless page counts as focused; this one plays a tab in the background unless told otherwise.
      Document.prototype.hasFocus = () => window.pretendFocus === true;
    });
    await signUpAndSignIn(context);
    const page = await context.newPage();
    await page.goto('/');
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    const overdue = async (title: string) => {
      const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString();
      const created = await context.request.post('/api/tasks', { data: { title, dueDate: lastWeek } });
      expect(created.status()).toBe(201);
      // The open panel only gains the reminder through the live event that also decides on the system notice.
      await page.getByRole('button', { name: new RegExp(title) }).waitFor({ timeout: 20_000 });
    };
    const shown = () => page.evaluate(() => window.shownNotifications ?? []);

    // Push Notifications is on by default.
    await bell.click();
    await overdue('Return the van keys');
    expect(await shown()).toEqual([{ title: 'Task overdue', body: expect.stringContaining('Return the van keys') }]);

    // In focus: the bell is enough.
    await page.evaluate(() => {
      window.pretendFocus = true;
    });
    await overdue('Book the generator');
    expect(await shown()).toHaveLength(1);
    await page.evaluate(() => {
      window.pretendFocus = false;
    });

    // Switched off: none, even in the background.
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Push Notifications' }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Your preferences have been saved successfully.').waitFor();
    await bell.click();
    await overdue('Send the location release');
    expect(await shown()).toHaveLength(0);
    await context.close();
  });
});

describe('push permission', () => {
  it('turning Push Notifications on asks the browser, and says so when the browser refuses', async () => {
    const context = await browser().newContext({ baseURL, viewport: DESKTOP });
    // A browser that has not decided yet and refuses when asked (as after the user clicks Block).
    await context.addInitScript(() => {
      let decision: NotificationPermission = 'default';
      Object.defineProperty(window.Notification, 'permission', { configurable: true, get: () => decision });
      window.Notification.requestPermission = async () => {
        window.permissionRequests = (window.permissionRequests ?? 0) + 1;
        decision = 'denied';
        return decision;
      };
    });
    await signUpAndSignIn(context);
    const page = await context.newPage();
    await page.goto('/settings');
    const push = page.getByRole('switch', { name: 'Push Notifications' });
    await page.getByRole('button', { name: 'Allow notifications' }).waitFor();
    await push.click();
    expect(await page.getByRole('button', { name: 'Allow notifications' }).count()).toBe(0);
    expect(await page.evaluate(() => window.permissionRequests ?? 0)).toBe(0);

    await push.click();
    await page.getByText('Your browser blocks notifications from Scoutbase.', { exact: false }).waitFor();
    expect(await page.evaluate(() => window.permissionRequests)).toBe(1);
    await screenshot(page, 'settings-push-blocked');
    await context.close();
  });
});

describe('auto save', () => {
  it('saves gallery notes by itself when on; when off, a Save Notes button and a warning before leaving', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/settings' });
    const created = await context.request.post('/api/galleries', { data: { name: 'Old Mill' } });
    const gallery = (await created.json()) as { id: string };
    const notes = page.getByRole('textbox', { name: 'Notes' });
    const openNotes = async () => {
      await page.goto(`/galleries/${gallery.id}`);
      await page.getByRole('heading', { name: 'Old Mill' }).waitFor();
      await page.getByRole('tab', { name: 'Notes' }).click();
    };
    const storedNotes = async () =>
      ((await (await context.request.get(`/api/galleries/${gallery.id}`)).json()) as { notes: string | null }).notes;

    // On (the default): typing is enough.
    await openNotes();
    expect(await page.getByRole('button', { name: 'Save Notes' }).count()).toBe(0);
    await notes.pressSequentially('Key at the pub next door.');
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved$/ })
      .waitFor();
    expect(await storedNotes()).toBe('Key at the pub next door.');

    // Off: nothing is saved until Save Notes, and leaving first asks.
    await page.goto('/settings');
    await page.getByRole('switch', { name: 'Auto Save' }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Your preferences have been saved successfully.').waitFor();
    await openNotes();
    await notes.fill('Key at the pub next door. Ask for Tom.');
    // The raw-uuid address was replaced by the gallery's global id: staying means staying there.
    const galleryUrl = page.url();
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    expect(asked).toEqual(['You have unsaved notes. Leave without saving them?']);
    expect(page.url()).toBe(galleryUrl);
    expect(await storedNotes()).toBe('Key at the pub next door.');

    await page.getByRole('button', { name: 'Save Notes' }).click();
    await page.getByText('Notes saved.').waitFor();
    expect(await storedNotes()).toBe('Key at the pub next door. Ask for Tom.');
    // Saved: leaving asks nothing.
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Task Management' }).waitFor();
    expect(asked).toHaveLength(1);
    await context.close();
  });
});

describe('signed-out redirect', () => {
  it('says so and goes to sign-in when the session ends under a data screen', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/' });
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();
    await context.clearCookies();
    await page.getByRole('link', { name: 'Tasks' }).first().click();
    await page.getByText('You are logged out. Logging in again...').waitFor();
    await page.waitForURL(/\/signin\?/);
    await page.getByRole('heading', { name: 'Sign in to Scoutbase' }).waitFor();
    expect(decodeURIComponent(page.url())).toContain('callbackUrl=/tasks');
    await context.close();
  });

  it('navigates on a phone with the bottom bar', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/', viewport: MOBILE });
    const nav = page.getByRole('navigation', { name: 'Mobile' });
    await nav.getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Task Management' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Tasks' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByPlaceholder('Search files, tags, or galleries...').isVisible()).toBe(false);
    await nav.getByRole('link', { name: 'Galleries' }).click();
    await page.waitForURL(`${baseURL}/galleries`);
    await page.getByRole('heading', { name: 'Photo Galleries' }).waitFor();
    await nav.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await screenshot(page, 'dashboard-mobile');
    await page.setViewportSize(DESKTOP);
    await context.close();
  });
});

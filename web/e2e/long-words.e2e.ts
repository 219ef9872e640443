import type { APIRequestContext, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPath, globalIdOf } from '../src/lib/globalId.ts';
import { makeAdmin } from './accounts.ts';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { baseURL, DESKTOP, MOBILE, newUser, screenshot, sharedBrowser, signedInContext, post } from './support.ts';

// Issue 53, item 1: one long word must not break a screen. Every free-text field holds an unbroken
// word of 600 characters (or the longest the API takes, when it takes fewer), and every signed-in
// screen, its dialogs and the review page are walked at phone and desktop width: the page never
// scrolls sideways, no text spills out of its box, and nothing is logged as an error. The data is
// made once; each width has one context.

const browser = sharedBrowser();

/** An unbroken word of `length` characters that says which field it is in. */
const word = (field: string, length = 600) => `${field}_`.padEnd(length, 'W');

/** Sends `make(length)` with 600 characters, or the longest the API takes (a 400 says "too long"). */
async function longest<T>(
  request: APIRequestContext,
  method: 'post' | 'patch' | 'put',
  path: string,
  make: (length: number) => object,
): Promise<T> {
  let last = '';
  for (const length of [600, 500, 255, 200, 100]) {
    const answer = await request[method](path, { data: make(length) });
    if (answer.ok()) return (await answer.json()) as T;
    last = `${answer.status()} ${await answer.text()}`;
    if (answer.status() !== 400) break;
  }
  throw new Error(`${method} ${path}: ${last}`);
}

interface Made {
  galleryPath: string;
  folderPath: string;
  reviewPath: string;
  fileName: string;
  ownerEmail: string;
  ownerPassword: string;
  memberEmail: string;
  memberPassword: string;
}

let made: Made;
let owner: BrowserContext;
let member: BrowserContext;

beforeAll(async () => {
  const ownerUser = newUser(word('OwnerName', 200));
  const memberUser = newUser(word('MemberName', 200));
  owner = (await signedInContext(browser(), { user: ownerUser })).context;
  member = (await signedInContext(browser(), { user: memberUser })).context;
  const request = owner.request;
  await longest(request, 'patch', '/api/user/profile', (n) => ({
    firstName: word('FirstName', n),
    lastName: word('LastName', n),
  }));
  await longest(member.request, 'patch', '/api/user/profile', (n) => ({ firstName: word('MemberFirst', n) }));
  const memberId = ((await (await member.request.get('/api/auth/user')).json()) as { id: string }).id;

  const project = await longest<{ id: string }>(request, 'post', '/api/projects', (n) => ({
    name: word('ProjectName', n),
    description: word('ProjectDescription', n),
  }));
  const invitation = await post<{ id: string }>(request, `/api/projects/${project.id}/invitations`, {
    email: memberUser.email,
    role: 'member',
  });
  await post(member.request, `/api/invitations/${invitation.id}/accept`);

  const gallery = await longest<{ id: string }>(request, 'post', '/api/galleries', (n) => ({
    name: word('GalleryName', n),
    description: word('GalleryDescription', n),
    location: word('GalleryLocation', n),
    projectName: word('GalleryProject', n),
    movieTvShow: word('GalleryShow', n),
    notes: word('GalleryNotes', n),
    tags: [word('GalleryTag', Math.min(n, 100)), word('SecondTag', Math.min(n, 100))],
  }));
  await post(request, `/api/galleries/${gallery.id}/share`, { projectId: project.id, permission: 'read' });
  // The member's own gallery, so both have one of each.
  await longest(member.request, 'post', '/api/galleries', (n) => ({ name: word('MemberGallery', n) }));

  const folder = await longest<{ id: string }>(request, 'post', '/api/folders', (n) => ({
    name: word('FolderName', n),
    parentId: null,
  }));
  const photo = await makePhoto({ colour: '#8a6d3b' });
  let file: { id: string } | undefined;
  let fileName = '';
  for (const length of [600, 255, 200, 100]) {
    fileName = `${word('FileName', length - 4)}.jpg`;
    file = await uploadThroughApi(request, fileName, photo).catch(() => undefined);
    if (file) break;
  }
  if (!file) throw new Error('no file name was taken');
  await uploadThroughApi(request, fileName, photo, 'image/jpeg', folder.id);
  await post(request, `/api/galleries/${gallery.id}/items`, { fileIds: [file.id] });
  await longest(request, 'post', `/api/galleries/${gallery.id}/comments`, (n) => ({
    fileId: file.id,
    body: word('NoteBody', n),
  }));

  const link = await longest<{ url: string }>(request, 'post', `/api/galleries/${gallery.id}/review-links`, (n) => ({
    label: word('ReviewLabel', n),
  }));
  const reviewPath = new URL(link.url, 'http://x').pathname;
  const token = reviewPath.split('/').pop();
  await longest(owner.request, 'post', `/api/review/${token}/comments`, (n) => ({
    fileId: file.id,
    name: word('ReviewerName', Math.min(n, 100)),
    body: word('ReviewComment', n),
  }));
  await longest(owner.request, 'put', `/api/review/${token}/picks/${file.id}`, (n) => ({
    name: word('ReviewerName', Math.min(n, 100)),
    pick: 'yes',
  }));

  for (const assigneeId of [null, memberId]) {
    await longest(request, 'post', '/api/tasks', (n) => ({
      title: word('TaskTitle', n),
      description: word('TaskDescription', n),
      priority: 'high',
      dueDate: null,
      assigneeId,
      galleryId: gallery.id,
    }));
  }
  await longest(member.request, 'post', '/api/tasks', (n) => ({ title: word('MemberTask', n), dueDate: null }));
  await makeAdmin(ownerUser.email);

  made = {
    galleryPath: appPath.gallery(globalIdOf('Gallery', gallery.id)),
    folderPath: appPath.folder(globalIdOf('Folder', folder.id)),
    reviewPath,
    fileName,
    ownerEmail: ownerUser.email,
    ownerPassword: ownerUser.password,
    memberEmail: memberUser.email,
    memberPassword: memberUser.password,
  };
}, 180_000);

afterAll(async () => {
  await owner?.close();
  await member?.close();
});

/**
 * What is wrong with the page as it stands: a sideways scroll, text of a long word running out of
 * the box that holds it (unless that box clips it, as `truncate` does), an open dialog wider than
 * the window.
 */
async function layoutProblems(page: Page, where: string): Promise<string[]> {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) found.push(`page is ${root.scrollWidth} px wide`);
    const describe = (element: Element) =>
      `<${element.tagName.toLowerCase()} class="${String(element.getAttribute('class') ?? '').slice(0, 80)}">`;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/\S{60,}/.test(node.textContent ?? '')) continue;
      let box = node.parentElement;
      while (box && getComputedStyle(box).display.startsWith('inline')) box = box.parentElement;
      if (!box || seen.has(box)) continue;
      seen.add(box);
      const style = getComputedStyle(box);
      if (box.getClientRects().length === 0 || style.visibility === 'hidden') continue;
      // Clipped on purpose (truncate, a scroller, sr-only).
      let clipped = false;
      for (let at: Element | null = box; at && at !== document.body; at = at.parentElement) {
        const overflow = getComputedStyle(at).overflowX;
        if (overflow !== 'visible') {
          const rect = at.getBoundingClientRect();
          if (rect.right <= window.innerWidth + 1 && rect.left >= -1) clipped = true;
          break;
        }
      }
      if (box.scrollWidth > box.clientWidth + 1 && style.overflowX === 'visible' && !clipped)
        found.push(`text spills out of ${describe(box)} (${box.scrollWidth} > ${box.clientWidth})`);
      const rect = box.getBoundingClientRect();
      if (rect.right > window.innerWidth + 1 && !clipped)
        found.push(`${describe(box)} reaches ${Math.round(rect.right)} px`);
    }
    for (const dialog of document.querySelectorAll('[role="dialog"]')) {
      const rect = dialog.getBoundingClientRect();
      if (rect.width === 0) continue;
      if (rect.right > window.innerWidth + 1 || rect.left < -1) found.push(`dialog spans ${rect.left}–${rect.right}`);
      if (dialog.scrollWidth > dialog.clientWidth + 1) found.push(`dialog content is ${dialog.scrollWidth} px wide`);
    }
    return found;
  });
  return problems.map((problem) => `${where}: ${problem}`);
}

/** A context at one width, signed in as `who`, that records console errors. */
async function pageAt(width: typeof MOBILE, who: 'owner' | 'member') {
  const context = await browser().newContext({ viewport: width, baseURL });
  const from = who === 'owner' ? owner : member;
  await context.addCookies(await from.cookies());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return { context, page, errors };
}

/** Waits until the screen shows `ready` (a locator's first match), then a frame for layout. */
async function settle(page: Page, ready: ReturnType<Page['locator']>) {
  await ready.first().waitFor({ timeout: 30_000 });
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

const sizes = [
  ['phone', MOBILE],
  ['desktop', DESKTOP],
] as const;

describe('one long word in every field', () => {
  for (const [label, size] of sizes) {
    it(`breaks no signed-in screen at ${size.width} px`, async () => {
      const { context, page, errors } = await pageAt(size, 'owner');
      const at = (path: string) => path;
      const problems: string[] = [];
      const check = async (where: string, shot?: string) => {
        const found = await layoutProblems(page, where);
        // Shown as they are found: the walk may stop at a later screen.
        if (found.length > 0) console.log(found.join('\n'));
        problems.push(...found);
        if (shot) await screenshot(page, `long-words-${shot}-${label}`);
      };
      const visit = async (path: string, ready: ReturnType<Page['locator']>, name: string) => {
        await page.goto(at(path));
        await settle(page, ready);
        await check(path, name);
      };

      await visit('/', page.getByRole('heading', { name: 'Dashboard' }), 'dashboard');
      await visit('/files', page.getByRole('heading', { name: 'File Manager' }), 'files');
      await visit(made.folderPath, page.getByText(made.fileName), 'folder');
      // Add to Gallery for the chosen file.
      await page
        .getByRole('checkbox', { name: `Select ${made.fileName}` })
        .first()
        .check();
      await page.getByRole('button', { name: 'Add to gallery' }).click();
      await settle(page, page.getByRole('dialog', { name: 'Add to Gallery' }).getByRole('radio'));
      await check('Add to Gallery dialog', 'add-to-gallery');
      await page.keyboard.press('Escape');
      await visit('/files?search=FileName', page.getByText(made.fileName), 'file-search');
      await visit('/galleries', page.getByRole('heading', { name: 'Photo Galleries' }), 'galleries');
      await visit(made.galleryPath, page.getByTestId('photo-tile'), 'gallery');
      for (const [button, dialog] of [
        ['Edit Gallery', 'Edit Gallery'],
        ['Review Links', 'Review Links'],
        ['Share Gallery', 'Share Gallery'],
        ['Add Photos', 'Add Photos'],
      ] as const) {
        const opener = page.getByRole('button', { name: button, exact: true }).first();
        if ((await opener.count()) === 0) {
          // Behind the phone's action menu.
          const more = page.getByRole('button', { name: /More actions|Gallery actions/ }).first();
          if ((await more.count()) === 0) continue;
          await more.click();
          await page.getByRole('menuitem', { name: button }).click();
        } else await opener.click();
        const open = page.locator('[role="dialog"]:visible').last();
        await settle(page, open);
        await page.waitForTimeout(300);
        await check(`${dialog} dialog`, `dialog-${button.toLowerCase().replace(/ /g, '-')}`);
        await page.keyboard.press('Escape');
        await open.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {});
      }
      await page.getByTestId('photo-tile').first().click();
      await settle(page, page.getByTestId('lightbox'));
      await page.waitForTimeout(300);
      await check('lightbox', 'lightbox');
      await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: /^Notes/ }).click();
      await settle(page, page.getByRole('tabpanel').getByRole('textbox'));
      await check('gallery notes', 'gallery-notes');
      await page.getByRole('tab', { name: /^Map/ }).click();
      await page.waitForTimeout(300);
      await check('gallery map');

      await visit('/projects', page.getByText(/ProjectName_/), 'projects');
      await visit('/tasks', page.getByText(/TaskTitle_/), 'tasks');
      await page.getByRole('button', { name: /Notifications/ }).click();
      await page.waitForTimeout(500);
      await check('notifications', 'bell');
      await page.keyboard.press('Escape');
      await visit('/settings', page.getByRole('heading', { name: 'Settings' }), 'settings');
      await visit('/settings/security', page.getByRole('heading', { name: /Two-factor sign-in/ }), 'security');
      await visit('/settings/account', page.getByRole('heading').first(), 'account');
      await visit('/admin', page.getByText(made.memberEmail), 'admin');
      await visit(made.reviewPath, page.getByText(/GalleryName_/), 'review');

      expect(problems).toEqual([]);
      expect(errors).toEqual([]);

      // axe on the screens this issue changed, light and dark.
      for (const dark of [false, true]) {
        await page.goto(at(made.galleryPath));
        await settle(page, page.getByTestId('photo-tile'));
        if (dark) await page.evaluate(() => document.documentElement.classList.add('dark'));
        expect(await seriousViolations(page), `gallery ${dark ? 'dark' : 'light'}`).toEqual([]);
        await page.goto(at('/tasks'));
        await settle(page, page.getByText(/TaskTitle_/));
        if (dark) await page.evaluate(() => document.documentElement.classList.add('dark'));
        expect(await seriousViolations(page), `tasks ${dark ? 'dark' : 'light'}`).toEqual([]);
      }
      await context.close();
    }, 300_000);
  }

  it("keeps a view-only member's photos from being announced as disabled, and their screens whole", async () => {
    const { context, page, errors } = await pageAt(MOBILE, 'member');
    const at = (path: string) => path;
    await page.goto(at(made.galleryPath));
    await settle(page, page.getByTestId('photo-tile'));
    // Nothing around the photos says it is disabled (react-dropzone's root did, for a viewer).
    expect(
      await page
        .getByTestId('photo-tile')
        .first()
        .evaluate((tile) => tile.closest('[aria-disabled="true"]')?.outerHTML.slice(0, 120) ?? null),
    ).toBeNull();
    const problems = await layoutProblems(page, 'member gallery');
    await page.goto(at('/galleries'));
    await settle(page, page.getByText(/GalleryName_/));
    problems.push(...(await layoutProblems(page, 'member galleries')));
    await page.goto(at('/'));
    await settle(page, page.getByRole('heading', { name: 'Dashboard' }));
    problems.push(...(await layoutProblems(page, 'member dashboard')));
    await screenshot(page, 'long-words-member-dashboard-phone');
    await context.close();
    expect(problems).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});

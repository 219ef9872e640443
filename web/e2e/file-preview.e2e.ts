import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makeDocx, makeLegacyDoc } from './documents.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { DESKTOP, MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

// Issue 53: the File Manager previews a file in place (picture, PDF, text; video has the same
// player the gallery uses; Word documents as HTML), with its details and previous / next, at an
// address of its own; and its search results list the galleries and folders that match, not only files.

describe('file preview', () => {
  it('opens in place with details, moves with the arrow keys, survives a reload and closes with Esc', async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const api = context.request;
    const photo = await uploadThroughApi(
      api,
      'harbour.jpg',
      await makePhoto({ gps: { latitude: 51.45, longitude: -2.6 } }),
    );
    await uploadThroughApi(api, 'call-sheet.pdf', Buffer.from('%PDF-1.4\n% preview\n%%EOF\n'), 'application/pdf');
    await uploadThroughApi(api, 'notes.txt', Buffer.from('Call time 06:00\nBring the long lens.\n'), 'text/plain');
    const gallery = (await (await api.post('/api/galleries', { data: { name: 'Harbour set' } })).json()) as {
      id: string;
    };
    expect((await api.post(`/api/galleries/${gallery.id}/items`, { data: { fileIds: [photo.id] } })).status()).toBe(
      201,
    );

    await page.goto('/files');
    // Newest first: notes.txt, call-sheet.pdf, harbour.jpg.
    await page.getByTestId('file-row').nth(2).waitFor();
    await page.getByRole('link', { name: 'notes.txt' }).click();
    await page.waitForURL(/preview=/);
    const preview = page.getByTestId('file-preview');
    await preview.getByTestId('preview-text').getByText('Bring the long lens.').waitFor();
    await preview.getByText('1 of 3').waitFor();
    await preview.getByText('text/plain').waitFor();
    expect(await preview.getByRole('button', { name: 'Previous file' }).isDisabled()).toBe(true);

    await page.keyboard.press('ArrowRight');
    const frame = preview.getByTestId('preview-pdf');
    await frame.waitFor();
    // The PDF is served inline for the app's own pages to frame, and nobody else's.
    const pdf = await api.get((await frame.getAttribute('src')) as string);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdf.headers()['content-disposition']).toMatch(/^inline; /);
    expect(pdf.headers()['x-frame-options']).toBe('SAMEORIGIN');

    await preview.getByRole('button', { name: 'Next file' }).click();
    await preview.getByTestId('preview-image').waitFor();
    await preview.getByText('3 of 3').waitFor();
    await preview.getByTestId('preview-galleries').getByRole('link', { name: 'Harbour set' }).waitFor();
    await preview.getByText('800 × 600').waitFor();
    await preview.getByText(/51\.45/).waitFor();
    await preview
      .getByTestId('preview-versions')
      .getByText(/^Version 1 · /)
      .waitFor();
    expect(await preview.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/\?download$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'file-preview-desktop');

    // A reload keeps the preview open on the same file.
    const address = page.url();
    await page.reload();
    await page.getByTestId('preview-image').waitFor();
    expect(page.url()).toBe(address);
    await page.getByText('3 of 3').waitFor();

    await page.keyboard.press('ArrowLeft');
    await page.getByTestId('preview-pdf').waitFor();

    // Phone width, dark.
    await page.setViewportSize(MOBILE);
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await page.keyboard.press('ArrowRight');
    await page.getByTestId('preview-image').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'file-preview-phone-dark');

    await page.keyboard.press('Escape');
    await page.waitForURL((url) => !url.searchParams.has('preview'));
    await page.getByTestId('file-preview').waitFor({ state: 'detached' });
    await page.setViewportSize(DESKTOP);
    await context.close();
  });
});

describe('Word documents', () => {
  it('shows a .docx as a readable page in a sandboxed frame, light and dark, and says a .doc has none', {
    timeout: 180_000,
  }, async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const api = context.request;
    // A download cut short: the ZIP's directory (its end) is missing.
    const whole = makeDocx('Cut short', ['Never seen']);
    await uploadThroughApi(
      api,
      'damaged.docx',
      whole.subarray(0, whole.length - 30),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    await uploadThroughApi(
      api,
      'call-sheet.docx',
      makeDocx('Day one call sheet', [
        'Crew meets at the harbour gate at 06:00.',
        'Bring <b>waders</b> & the long lens.',
      ]),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    await uploadThroughApi(api, 'old-call-sheet.doc', makeLegacyDoc(), 'application/msword');

    await page.goto('/files');
    await page.getByTestId('file-row').nth(2).waitFor();
    await page.getByRole('link', { name: 'call-sheet.docx' }).click();
    await page.waitForURL(/preview=/);
    const preview = page.getByTestId('file-preview');
    const frame = preview.getByTestId('preview-document');
    await frame.waitFor();
    // Nothing in the frame may run, nor reach the app (no allow-scripts, no allow-same-origin).
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    const word = preview.frameLocator('[data-testid="preview-document"]');
    await word.getByRole('heading', { level: 1, name: 'Day one call sheet' }).waitFor();
    await word.getByText('Crew meets at the harbour gate at 06:00.').waitFor();
    // What the document says stays text.
    await word.getByText('Bring <b>waders</b> & the long lens.').waitFor();
    expect(await word.locator('b').count()).toBe(0);
    expect(await word.locator('html').getAttribute('class')).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'file-preview-docx-desktop');

    // Dark mode reaches the frame's page.
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await expect.poll(() => word.locator('html').getAttribute('class')).toBe('dark');
    await page.setViewportSize(MOBILE);
    await word.getByText('Crew meets at the harbour gate at 06:00.').waitFor();
    await screenshot(page, 'file-preview-docx-phone-dark');
    await page.setViewportSize(DESKTOP);

    // Newest first: the .doc, the .docx, the damaged one.
    await page.keyboard.press('ArrowLeft');
    await preview.getByText('old-call-sheet.doc', { exact: true }).first().waitFor();
    await preview.getByText('Preview is not available for .doc files; download to open it.').waitFor();
    const download = preview.getByRole('link', { name: 'Download old-call-sheet.doc' });
    expect(await download.getAttribute('href')).toMatch(/\?download$/);
    expect(await preview.getByTestId('preview-document').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // A document the server cannot read: its reason, and the download.
    await page.keyboard.press('ArrowRight');
    await preview.getByTestId('preview-document').waitFor();
    await page.keyboard.press('ArrowRight');
    await preview.getByText('3 of 3').waitFor();
    await preview.getByText(/This document could not be read: the \.docx file is damaged/).waitFor();
    await preview.getByRole('link', { name: 'Download damaged.docx' }).waitFor();
    await context.close();
  });
});

describe('search results', () => {
  it('lists the galleries and folders that match, only those the viewer may see', async () => {
    const other = await signedInPage(browser(), { path: '/files' });
    expect((await other.context.request.post('/api/galleries', { data: { name: 'Quayside secret' } })).status()).toBe(
      201,
    );
    await other.context.close();

    const { context, page } = await signedInPage(browser(), { path: '/files' });
    const api = context.request;
    expect(
      (await api.post('/api/galleries', { data: { name: 'Lofts', location: 'Quayside, Bristol' } })).status(),
    ).toBe(201);
    const folder = (await (
      await api.post('/api/folders', { data: { name: 'Quayside day 1', parentId: null } })
    ).json()) as {
      id: string;
    };
    await uploadThroughApi(api, 'quayside-gate.jpg', await makePhoto(), 'image/jpeg', folder.id);

    await page.goto('/files?search=quayside');
    const galleries = page.getByRole('region', { name: 'Galleries found' });
    await galleries.getByRole('link', { name: /Lofts/ }).waitFor();
    expect(await galleries.getByText('Quayside secret').count()).toBe(0);
    const folders = page.getByRole('region', { name: 'Folders found' });
    await folders.getByRole('button', { name: /Quayside day 1/ }).waitFor();
    await page.getByRole('list', { name: 'Search results' }).getByText('quayside-gate.jpg').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'files-search-everything-desktop');

    await page.setViewportSize(MOBILE);
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'files-search-everything-phone-dark');

    // A folder found opens in the File Manager.
    await folders.getByRole('button', { name: /Quayside day 1/ }).click();
    await page.waitForURL((url) => url.searchParams.has('folder') && !url.searchParams.has('search'));
    await page.getByTestId('file-row').filter({ hasText: 'quayside-gate.jpg' }).waitFor();
    await context.close();
  });
});

import { describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { makePhoto, uploadThroughApi } from './images.ts';
import { DESKTOP, MOBILE, screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

// Issue 53: the File Manager previews a file in place (picture, PDF, text; video has the same
// player the gallery uses), with its details and previous / next, at an address of its own; and
// its search results list the galleries and folders that match, not only files.

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

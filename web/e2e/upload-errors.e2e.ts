import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { screenshot, sharedBrowser, signedInPage } from './support.ts';

const browser = sharedBrowser();

// Issue 53 item 4: a File Manager upload the server refuses says why, in the upload list.
describe('file manager upload failures', () => {
  it("shows the server's reason for an empty file and for random bytes named .jpg", async () => {
    const { context, page } = await signedInPage(browser(), { path: '/files?upload=true' });
    const input = page.getByLabel('Choose files to upload');
    await input.setInputFiles({ name: 'empty.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(0) });
    const empty = page.getByTestId('upload-item').filter({ hasText: 'empty.jpg' });
    await empty.and(page.locator('[data-status="error"]')).waitFor();
    await empty.getByText('File is empty.').waitFor();

    await input.setInputFiles({ name: 'noise.jpg', mimeType: 'image/jpeg', buffer: randomBytes(2048) });
    const noise = page.getByTestId('upload-item').filter({ hasText: 'noise.jpg' });
    await noise.and(page.locator('[data-status="error"]')).waitFor();
    await noise.getByText(/^File type must be one of .*; this file is/).waitFor();

    // The large path (resumable, over 256 KB) says why too.
    await input.setInputFiles({ name: 'big-noise.jpg', mimeType: 'image/jpeg', buffer: randomBytes(400 * 1024) });
    const big = page.getByTestId('upload-item').filter({ hasText: 'big-noise.jpg' });
    await big.and(page.locator('[data-status="error"]')).waitFor();
    await big.getByText(/^File type must be one of .*; this file is/).waitFor();
    await screenshot(page, 'files-upload-errors');
    await context.close();
  });
});

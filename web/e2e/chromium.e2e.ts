import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './chromium.ts';

// The browser these tests and the benches drive should spend its CPU on the page under test.
describe('the Chromium the tests and benches start', () => {
  const started = launchBrowser();
  afterAll(async () => (await started).close());

  it('opens a tab without building the address bar popup, a web page of its own', async () => {
    const browser = await started;
    const page = await browser.newPage();
    await page.goto('about:blank');
    // The popup is built shortly after the tab opens; give it the time it took when it was built.
    await page.waitForTimeout(500);
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    expect(targetInfos.map((target) => target.url).filter((url) => url.startsWith('chrome://'))).toEqual([]);
    await page.close();
  });
});

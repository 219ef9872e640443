import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, DESKTOP, launchBrowser, MOBILE, signedInPage } from './support.ts';

// axe-core on every screen, desktop and phone: no serious or critical violations.

let browser: Browser;
let axeSource: string;
beforeAll(async () => {
  browser = await launchBrowser();
  axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
});
afterAll(async () => {
  await browser?.close();
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

const SCREENS: [string, string][] = [
  ['/', 'Dashboard'],
  ['/galleries', 'Photo Galleries'],
  ['/files', 'File Manager'],
  ['/tasks', 'Task Management'],
  ['/settings', 'Account Settings'],
  ['/no-such-page', '404 Page Not Found'],
];

describe('accessibility', () => {
  it('the landing and legal pages have no serious violations', async () => {
    const context = await browser.newContext({ baseURL, viewport: DESKTOP });
    const page = await context.newPage();
    for (const path of ['/', '/privacy', '/terms']) {
      await page.goto(path);
      await page.getByRole('heading').first().waitFor();
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await context.close();
  });

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`signed-in screens have no serious violations at ${viewport.width}px`, async () => {
      const { context, page } = await signedInPage(browser, { viewport });
      for (const [path, heading] of SCREENS) {
        await page.goto(path);
        await page.getByRole('heading', { name: heading }).first().waitFor();
        // Subscriptions keep a stream open, so wait for the skeletons to go instead of network idle.
        await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [data-testid="skeleton"]'));
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await context.close();
    }, 120_000);
  }
});

import { describe, expect, it } from 'vitest';
import { baseURL, sharedBrowser, signedInContext } from './support.ts';

// GraphiQL at /graphql (outside production) on a closed network: its code, styles and editor workers
// come from the app itself. Every request to any other host is refused and noted.

const browser = sharedBrowser();

describe('GraphiQL', () => {
  it('renders and runs a query with no network beyond the server', async () => {
    const { context } = await signedInContext(browser());
    const server = new URL(baseURL).host;
    const elsewhere: string[] = [];
    const failed: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.protocol === 'blob:' || url.host === server) return route.continue();
      elsewhere.push(url.href);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    const query = '{ viewer { id displayName } }';
    await page.goto(`/graphql?query=${encodeURIComponent(query)}`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('Scoutbase GraphQL');

    const run = page.getByRole('button', { name: /execute query/i });
    await run.click();
    const response = page.locator('.graphiql-response');
    await expect.poll(async () => (await response.textContent()) ?? '', { timeout: 20_000 }).toContain('"viewer"');
    expect(await response.textContent()).toContain('"displayName"');

    expect(elsewhere).toEqual([]);
    expect(failed).toEqual([]);
    await context.close();
  });
});

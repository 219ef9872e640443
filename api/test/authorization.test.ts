import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessCase, type AccessHarness, accessHarness } from './access.ts';
import { testApp, type TestApp } from './harness.ts';

// Every domain's rows, gathered at build time: a new domain only has to add its cases file.
const modules = import.meta.glob<{ accessCases: AccessCase[] }>('../src/*/access.cases.ts', { eager: true });
const cases = Object.values(modules).flatMap((m) => m.accessCases);

let app: TestApp;
let t: AccessHarness;
beforeAll(async () => {
  app = await testApp();
  t = await accessHarness(app);
});
afterAll(() => app.close());

/** Every data route the app serves, as 'METHOD /path'. */
function dataRoutes(): string[] {
  return [
    ...new Set(
      app.routes
        .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL')
        .filter((r) => r.path !== '/api/login' && r.path !== '/api/health' && r.path !== '/api/ready')
        // tus discovery: the protocol's versions, extensions and size limit, to anyone (tus 1.0
        // asks it of every server), never data (tus-protocol.test.ts)
        .filter((r) => r.method !== 'OPTIONS')
        .map((r) => `${r.method} ${r.path}`),
    ),
  ].sort();
}

it('has a row for every data route', () => {
  const covered = new Set(cases.map((c) => c.route));
  expect(dataRoutes().filter((route) => !covered.has(route))).toEqual([]);
});

describe.each(cases.map((c) => [`${c.route}: ${c.name}`, c] as const))('%s', (_name, row) => {
  it('answers 401 when signed out, and keeps the owner’s data from a stranger', async () => {
    const request = await row.arrange(t);
    const init = (cookie?: string) => ({
      method: request.method,
      cookie,
      headers: request.body === undefined ? undefined : { 'content-type': 'application/json' },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const who = row.as ?? 'stranger';
    if (who !== 'anonymous') {
      const signedOut = await app.request(request.path, init());
      expect(signedOut.status).toBe(401);
    }

    const response = await app.request(request.path, init(who === 'anonymous' ? undefined : t[who].cookie));
    const text = await response.text();
    switch (row.expect) {
      case 'not-found':
        expect(response.status).toBe(404);
        break;
      case 'forbidden':
        expect(response.status).toBe(403);
        break;
      case 'refused':
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        break;
      case 'empty-list':
        expect(response.status).toBe(200);
        expect(JSON.parse(text)).toEqual([]);
        break;
      case 'own-data-only':
        expect(response.status).toBeLessThan(300);
        expect(text).not.toContain(t.owner.id);
        break;
      case 'allowed':
        expect(response.status, text).toBeGreaterThanOrEqual(200);
        expect(response.status, text).toBeLessThan(300);
        break;
      case 'unauthorized':
        expect(response.status).toBe(401);
        break;
    }
    // Refusals explain themselves; none of them leak the owner's records.
    if (response.status >= 400) expect(JSON.parse(text)).toHaveProperty('message');
    await row.unchanged?.(t);
  });
});

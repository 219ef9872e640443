import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { readConfig } from '../config.ts';
import { pageSources } from '../app.ts';
import { securityHeaders } from '../http/security.ts';

const OWN_TILES = 'http://tiles.studio.lan:8080/osm/{z}/{x}/{y}.png';

describe('map tiles', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp({ MAP_TILE_URL: OWN_TILES, MAP_TILE_ATTRIBUTION: 'Studio tile server' });
  });
  afterAll(() => app.close());

  it('tells the signed-in web app where tiles come from', async () => {
    const { cookie } = await signedInUser(app);
    const response = await app.request('/api/map/config', { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ tileUrl: OWN_TILES, attribution: 'Studio tile server' });
    expect((await app.request('/api/map/config')).status).toBe(401);
  });

  it('lets production pages load images from the configured tile host, also over plain http', async () => {
    const imgSrc = async (env: Record<string, string>) => {
      const config = readConfig({ NODE_ENV: 'production', AUTH_SECRET: 'q8Vn2xLr5TzKp0WbYc7HsJd3MfGa6Ue1', ...env });
      const probe = new Hono().use(securityHeaders(config, pageSources(config))).get('/', (c) => c.text('ok'));
      const csp = (await probe.request('/')).headers.get('content-security-policy') ?? '';
      return csp.split(';').find((part) => part.trim().startsWith('img-src')) ?? '';
    };
    expect(await imgSrc({ MAP_TILE_URL: OWN_TILES })).toContain('http://tiles.studio.lan:8080');
    // A placeholder for the subdomain ({s}) stands for every subdomain of the host.
    expect(await imgSrc({ MAP_TILE_URL: 'http://{s}.tiles.studio.lan/{z}/{x}/{y}.png' })).toContain(
      'http://*.tiles.studio.lan',
    );
    expect(await imgSrc({})).toContain('https://tile.openstreetmap.org');
  });
});

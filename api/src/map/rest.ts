import { Hono } from 'hono';
import type { Config } from '../config.ts';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';

/** Where the gallery map's tiles come from (MAP_TILE_URL), read once at start. */
export function mapRoutes(services: Services) {
  const routes = new Hono<AppEnv>();
  routes.get('/api/map/config', (c) => c.json(services.config.map));
  return routes;
}

/**
 * The tile host as a content-security-policy source, so production pages may load its images
 * (a tile server on the local network often speaks plain http). Leaflet's {s} placeholder stands
 * for the host's subdomains.
 */
export function tileImageSources(map: Config['map']): string[] {
  const match = /^(https?):\/\/([^/]+)\//.exec(map.tileUrl);
  if (!match) return [];
  const [, scheme, host = ''] = match;
  return [`${scheme}://${host.replace(/\{s\}/g, '*')}`];
}

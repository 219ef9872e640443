import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { dashboardSummary } from './rules.ts';

export function dashboardRoutes(services: Services) {
  const routes = new Hono<AppEnv>();
  routes.get('/api/dashboard/stats', async (c) => c.json(await dashboardSummary(viewerContext(c, services))));
  return routes;
}

import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { limitParam } from '../shared/validation.ts';
import { ACTIVITY_LIMIT, listActivity } from './rules.ts';

export function activityRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  // The dashboard's Recent Activity: newest first, ?limit=1..100 (20 by default).
  routes.get('/api/activity', async (c) => {
    const limit = limitParam(c.req.query('limit'), ACTIVITY_LIMIT);
    return c.json(await listActivity(viewerContext(c, services), { limit }));
  });

  return routes;
}

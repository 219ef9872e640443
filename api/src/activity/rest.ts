import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { ValidationError } from '../shared/errors.ts';
import { ACTIVITY_LIMIT, listActivity } from './rules.ts';

export function activityRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  // The dashboard's Recent Activity: newest first, ?limit=1..100 (20 by default).
  routes.get('/api/activity', async (c) => {
    const rawLimit = c.req.query('limit');
    const limit = rawLimit === undefined ? undefined : Number(rawLimit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > ACTIVITY_LIMIT)) {
      throw new ValidationError(`limit must be a whole number from 1 to ${ACTIVITY_LIMIT}.`, 'limit');
    }
    return c.json(await listActivity(viewerContext(c, services), { limit }));
  });

  return routes;
}

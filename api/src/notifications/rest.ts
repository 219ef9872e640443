import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { viewerContext } from '../http/helpers.ts';
import { limitParam } from '../shared/validation.ts';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATION_LIST_LIMIT,
  unreadNotificationCount,
} from './rules.ts';

export function notificationRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  // Newest first; ?limit=1..100 (50 by default), ?unread=true for unread ones only.
  routes.get('/api/notifications', async (c) => {
    const limit = limitParam(c.req.query('limit'), NOTIFICATION_LIST_LIMIT);
    const unread = c.req.query('unread');
    return c.json(
      await listNotifications(viewerContext(c, services), { limit, unreadOnly: unread === 'true' || unread === '1' }),
    );
  });

  routes.get('/api/notifications/unread-count', async (c) =>
    c.json({ count: await unreadNotificationCount(viewerContext(c, services)) }),
  );

  routes.patch('/api/notifications/read-all', async (c) =>
    c.json(await markAllNotificationsRead(viewerContext(c, services))),
  );

  routes.patch('/api/notifications/:id/read', async (c) =>
    c.json(await markNotificationRead(viewerContext(c, services), c.req.param('id'))),
  );

  return routes;
}

import { Hono } from 'hono';
import type { Services } from './context.ts';
import type { AppEnv } from './http/env.ts';
import { requireViewer } from './http/helpers.ts';
import { fileRoutes } from './files/rest.ts';
import { assistantRoutes } from './assistant/rest.ts';
import { galleryRoutes } from './galleries/rest.ts';
import { projectRoutes } from './projects/rest.ts';
import { taskRoutes } from './tasks/rest.ts';
import { notificationRoutes } from './notifications/rest.ts';
import { activityRoutes } from './activity/rest.ts';
import { settingsRoutes } from './settings/rest.ts';
import { dashboardRoutes } from './dashboard/rest.ts';
import { mapRoutes } from './map/rest.ts';
import { reviewMemberRoutes } from './reviews/rest.ts';
import { adminRoutes } from './admin/rest.ts';

/**
 * The spec's data paths. Each domain keeps its own router in <domain>/rest.ts;
 * they are all mounted here behind one rule: no session, no data (401).
 */
export function dataRoutes(services: Services) {
  const routes = new Hono<AppEnv>();
  routes.use('/api/*', async (c, next) => {
    requireViewer(c);
    await next();
  });
  // Domain routers, one line each:
  routes.route('/', fileRoutes(services));
  routes.route('/', galleryRoutes(services));
  routes.route('/', projectRoutes(services));
  routes.route('/', taskRoutes(services));
  routes.route('/', notificationRoutes(services));
  routes.route('/', activityRoutes(services));
  routes.route('/', settingsRoutes(services));
  routes.route('/', dashboardRoutes(services));
  routes.route('/', assistantRoutes(services));
  routes.route('/', mapRoutes(services));
  routes.route('/', reviewMemberRoutes(services));
  routes.route('/', adminRoutes(services));
  return routes;
}

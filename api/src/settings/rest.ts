import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import { profileOf, updateProfile } from '../users/rules.ts';
import { getSettings, updateSettings } from './rules.ts';

export function settingsRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  routes.get('/api/user/settings', async (c) => c.json(await getSettings(viewerContext(c, services))));

  routes.patch('/api/user/settings', async (c) =>
    c.json(await updateSettings(viewerContext(c, services), await readJson(c))),
  );

  // The settings screen's First Name and Last Name; answers the profile as GET /api/auth/user does.
  routes.patch('/api/user/profile', async (c) => {
    const ctx = viewerContext(c, services);
    await updateProfile(ctx.db, ctx.viewer, (await readJson(c)) as never);
    return c.json(await profileOf(ctx.db, ctx.viewer.id));
  });

  return routes;
}

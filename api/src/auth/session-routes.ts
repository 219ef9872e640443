import { type Context, Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { requireViewer } from '../http/helpers.ts';
import { recordAudit } from './audit.ts';
import { endOwnSession, endSessions, listSessions } from './session-control.ts';

/**
 * The signed-in person's devices (the Security screen). Mounted before Auth.js's own /api/auth/*
 * routes, which would take these paths otherwise.
 */
export function sessionRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  const origin = (c: Context<AppEnv>) => ({
    ipAddress: c.get('clientAddress'),
    userAgent: c.req.header('user-agent') ?? null,
  });

  routes.get('/api/auth/sessions', async (c) => c.json(await listSessions(services.db, requireViewer(c))));

  // Signs out every other device; this one stays signed in.
  routes.delete('/api/auth/sessions', async (c) => {
    const viewer = requireViewer(c);
    const ended = await endSessions(services, { userId: viewer.id, exceptSessionId: viewer.sessionId });
    await recordAudit(services.db, {
      action: 'sessions_ended',
      actor: viewer,
      ...origin(c),
      metadata: { count: ended.length, sessionIds: ended },
    });
    return c.json({ ended: ended.length });
  });

  routes.delete('/api/auth/sessions/:id', async (c) => {
    const viewer = requireViewer(c);
    const sessionId = c.req.param('id');
    await endOwnSession(services, viewer, sessionId);
    await recordAudit(services.db, {
      action: 'session_ended',
      actor: viewer,
      ...origin(c),
      metadata: { sessionId, current: sessionId === viewer.sessionId },
    });
    return c.body(null, 204);
  });

  return routes;
}

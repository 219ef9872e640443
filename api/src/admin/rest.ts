import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson } from '../http/helpers.ts';
import { contentDisposition } from '../http/serve-bytes.ts';
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_EXPORT_MAX,
  auditCsvRow,
  auditPages,
  auditQuery,
  instanceReport,
  listAudit,
  listUsers,
  type RequestMeta,
  requireAdmin,
  retryJobs,
  sendPasswordResetFor,
  updateInstance,
  updateUser,
} from './rules.ts';

function meta(c: Context<AppEnv>): RequestMeta {
  return { ipAddress: c.get('clientAddress') ?? null, userAgent: c.req.header('user-agent') ?? null };
}

/**
 * The administrator console's paths. Every one answers 404 to anyone who is not an administrator
 * (requireAdmin), as a path that does not exist would, and 401 signed out (dataRoutes).
 */
export function adminRoutes(services: Services) {
  const routes = new Hono<AppEnv>();
  const admin = (c: Context<AppEnv>) => requireAdmin({ ...services, viewer: c.get('viewer') });

  routes.get('/api/admin/users', async (c) => {
    const ctx = await admin(c);
    const { users, total } = await listUsers(ctx, c.req.query());
    c.header('X-Total-Count', String(total));
    return c.json(users);
  });

  routes.patch('/api/admin/users/:id', async (c) => {
    const ctx = await admin(c);
    return c.json(await updateUser(ctx, c.req.param('id'), await readJson(c), meta(c)));
  });

  routes.post('/api/admin/users/:id/password-reset', async (c) => {
    const ctx = await admin(c);
    return c.json(await sendPasswordResetFor(ctx, c.req.param('id'), meta(c)), 202);
  });

  routes.get('/api/admin/audit', async (c) => {
    const ctx = await admin(c);
    const format = c.req.query('format');
    if (format !== undefined && format !== 'csv' && format !== 'json') {
      return c.json({ message: 'format must be csv or json.' }, 400);
    }
    // Without a format: a page for the screen. With one: a download of everything that matches.
    if (format === undefined) return c.json(await listAudit(ctx, auditQuery(c.req.query())));
    const { format: _format, ...rest } = c.req.query();
    const query = auditQuery({ limit: String(AUDIT_EXPORT_MAX), ...rest }, { maxLimit: AUDIT_EXPORT_MAX });
    const day = new Date().toISOString().slice(0, 10);
    const encoder = new TextEncoder();
    const pages = auditPages(ctx, query);
    let first = true;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (format === 'csv') controller.enqueue(encoder.encode(`${AUDIT_CSV_COLUMNS.join(',')}\r\n`));
        else controller.enqueue(encoder.encode('['));
      },
      async pull(controller) {
        try {
          const next = await pages.next();
          if (next.done) {
            if (format === 'json') controller.enqueue(encoder.encode(']\n'));
            controller.close();
            return;
          }
          const text =
            format === 'csv'
              ? next.value.map(auditCsvRow).join('')
              : next.value
                  .map((row) => {
                    const line = `${first ? '' : ','}\n${JSON.stringify(row)}`;
                    first = false;
                    return line;
                  })
                  .join('');
          controller.enqueue(encoder.encode(text));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    return new Response(body, {
      headers: {
        'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        'Content-Disposition': contentDisposition(`scoutbase-audit-${day}.${format}`, { ascii: true }),
        'Cache-Control': 'no-store',
      },
    });
  });

  routes.get('/api/admin/instance', async (c) => c.json(await instanceReport(await admin(c))));

  routes.patch('/api/admin/instance', async (c) => {
    const ctx = await admin(c);
    return c.json(await updateInstance(ctx, await readJson(c), meta(c)));
  });

  routes.post('/api/admin/jobs/:queue/retry', async (c) => {
    const ctx = await admin(c);
    return c.json(await retryJobs(ctx, c.req.param('queue'), meta(c)));
  });

  return routes;
}

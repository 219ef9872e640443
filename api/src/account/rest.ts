import { type Context, Hono } from 'hono';
import type { Services } from '../context.ts';
import { signInGate } from '../auth/throttle.ts';
import { zipResponse } from '../files/archive.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, requireViewer } from '../http/helpers.ts';
import { contentDisposition } from '../http/serve-bytes.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import { accountExport, exportFileName, recordExport } from './export.ts';
import { type AccountDeps, deleteAccount, deletionPreview, type Origin } from './rules.ts';

/**
 * A person's own data: GET /api/account/export (a ZIP of everything of theirs, streamed),
 * GET /api/account/deletion-preview and DELETE /api/account. Mounted with the storage routes,
 * which own the store the export reads and the deletion empties; each route needs a session.
 */
export function accountRoutes(deps: Services & { store: ObjectStore; secret: string; limiter: RateLimiter }) {
  const account: AccountDeps = { ...deps, gate: signInGate(deps.limiter, deps.config.auth.signInThrottle) };
  const originOf = (c: Context<AppEnv>): Origin => ({
    ipAddress: c.get('clientAddress') ?? null,
    userAgent: c.req.header('user-agent') ?? null,
  });
  const routes = new Hono<AppEnv>();

  routes.get('/api/account/export', async (c) => {
    const viewer = requireViewer(c);
    const entries = await accountExport(account, viewer);
    const response = await zipResponse(
      account.store,
      entries,
      contentDisposition(exportFileName(), { ascii: true }),
      // A file whose bytes are lost does not cost the person the rest of their data.
      { folders: true, skipMissing: true },
    );
    await recordExport(account, viewer, originOf(c), entries);
    return response;
  });

  routes.get('/api/account/deletion-preview', async (c) => c.json(await deletionPreview(account, requireViewer(c))));

  routes.delete('/api/account', async (c) => {
    const viewer = requireViewer(c);
    return c.json(await deleteAccount(account, viewer, await readJson(c), originOf(c)));
  });

  return routes;
}

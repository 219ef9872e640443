import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { readJson, requireViewer, viewerContext } from '../http/helpers.ts';
import { DomainError } from '../shared/errors.ts';
import {
  connectorFor,
  connectUrl,
  disconnect,
  finishConnect,
  importJob,
  listItems,
  listSources,
  sourceId,
  startImport,
  type ImportDeps,
} from './rules.ts';
import { callbackPage } from './connection-page.ts';
import { CONNECTION_FAILED } from '../infra/import-sources/connector.ts';
import { SOURCE_NAMES } from './sources.ts';

function originOf(c: Context<AppEnv>, deps: ImportDeps) {
  return deps.config.publicUrl ?? new URL(c.req.url).origin;
}

/** The import paths: sources, connections (OAuth), items, and import jobs. */
export function importRoutes(deps: ImportDeps) {
  const routes = new Hono<AppEnv>();

  routes.get('/api/imports/sources', async (c) => {
    return c.json(await listSources(viewerContext(c, deps)));
  });

  routes.post('/api/imports', async (c) => {
    const ctx = viewerContext(c, deps);
    return c.json(await startImport(deps, ctx, await readJson(c)), 202);
  });

  routes.get('/api/imports/:source/items', async (c) => {
    const viewer = requireViewer(c);
    const { folder, search } = c.req.query();
    const items = await listItems(deps, viewer, c.req.param('source'), {
      ...(folder !== undefined && { folder }),
      ...(search !== undefined && { search }),
    });
    return c.json(items);
  });

  routes.get('/api/imports/:source/thumbnail', async (c) => {
    const viewer = requireViewer(c);
    const connector = await connectorFor(deps, viewer, c.req.param('source'));
    const picture = await connector.thumbnail(c.req.query('id') ?? '');
    return new Response(picture.body as BodyInit, {
      headers: {
        'content-type': picture.contentType,
        'cache-control': 'private, max-age=300',
        'x-content-type-options': 'nosniff',
      },
    });
  });

  // The browser (a popup of the import dialog) goes here, then on to the provider's consent screen.
  routes.get('/api/imports/:source/connect', async (c) => {
    const viewer = requireViewer(c);
    return c.redirect(connectUrl(deps, viewer, c.req.param('source'), originOf(c, deps)), 302);
  });

  routes.get('/api/imports/:source/callback', async (c) => {
    const viewer = requireViewer(c);
    const source = c.req.param('source');
    const { code, state, error } = c.req.query();
    try {
      const id = await finishConnect(deps, viewer, source, { code, state, error });
      return c.html(callbackPage(id, true, `${SOURCE_NAMES[id]} is connected. You can close this window.`));
    } catch (failure) {
      // A forged or stale state is refused plainly; a provider that said no gets the dialog's words.
      if (failure instanceof DomainError && failure.status !== 502 && failure.code !== 'VALIDATION') throw failure;
      if (!(failure instanceof DomainError)) deps.logger?.error({ err: failure, source }, 'import connection failed');
      sourceId(deps, source);
      return c.html(callbackPage(source, false, CONNECTION_FAILED), 400);
    }
  });

  routes.delete('/api/imports/:source/connection', async (c) => {
    return c.json(await disconnect(viewerContext(c, deps), c.req.param('source')));
  });

  routes.get('/api/imports/:id', async (c) => {
    return c.json(await importJob(viewerContext(c, deps), c.req.param('id')));
  });

  return routes;
}

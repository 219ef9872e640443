import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import { type AnalysisDeps, analyzeFile } from './analyze.ts';
import { listConversations, listMessages, sendMessage } from './rules.ts';

export function assistantRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  routes.get('/api/ai/conversations', async (c) => c.json(await listConversations(viewerContext(c, services))));

  routes.get('/api/ai/conversations/:id/messages', async (c) =>
    c.json(await listMessages(viewerContext(c, services), c.req.param('id'))),
  );

  routes.post('/api/ai/chat', async (c) =>
    c.json(await sendMessage(viewerContext(c, services), (await readJson(c)) as never)),
  );

  return routes;
}

/** POST /api/ai/analyze-file reads the photo's bytes from the object store, so it gets the store too. */
export function analyzeRoutes(services: Services, deps: AnalysisDeps) {
  const routes = new Hono<AppEnv>();
  routes.post('/api/ai/analyze-file', async (c) =>
    c.json(await analyzeFile(deps, viewerContext(c, services), await readJson(c))),
  );
  return routes;
}

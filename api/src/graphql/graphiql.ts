import { createRequire } from 'node:module';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';

/**
 * GraphiQL (development only) from the app's own assets: yoga's page loads its code, styles and
 * editor workers from a public CDN, so on a closed network (a studio's air-gapped office) it stays
 * at 'Loading…'. Here they come from @graphql-yoga/graphiql as installed, under /graphiql/, and the
 * page runs no inline script: the CSP's script-src 'self' would allow it as it is.
 */
export const GRAPHIQL_ASSETS = '/graphiql';

const dist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@graphql-yoga/graphiql/package.json')),
  'dist',
);

// Monaco asks for a worker by label; the file names are the package's own (graphql's has two dots).
const START = `'use strict';
const workers = {
  editorWorkerService: 'editor.worker.bundle.js',
  json: 'json.worker.bundle.js',
  graphql: 'graphql.worker..bundle.js',
};
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (_id, label) => '${GRAPHIQL_ASSETS}/monacoeditorwork/' + (workers[label] || workers.editorWorkerService),
};
const options = JSON.parse(document.getElementById('graphiql-options').textContent);
YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The page yoga answers GET /graphql with (its `renderGraphiQL` option). */
export function renderGraphiQL(options: { title?: string } = {}) {
  const title = escapeHtml(options.title ?? 'GraphiQL');
  // A data block, not a script: the browser never runs it (and '<' cannot end it).
  const json = JSON.stringify(options).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="${GRAPHIQL_ASSETS}/graphiql.css"></head>
<body id="body" class="no-focus-outline"><noscript>You need to enable JavaScript to run this app.</noscript>
<div id="root">Loading ${title}…</div>
<script id="graphiql-options" type="application/json">${json}</script>
<script src="${GRAPHIQL_ASSETS}/yoga-graphiql.umd.js"></script>
<script src="${GRAPHIQL_ASSETS}/start.js"></script>
</body></html>`;
}

/** GET /graphiql/…: the start script and the package's files (its dist folder, nothing above it). */
export function graphiqlRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get(`${GRAPHIQL_ASSETS}/start.js`, (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('cache-control', 'no-cache');
    return c.body(START);
  });
  routes.get(
    `${GRAPHIQL_ASSETS}/*`,
    serveStatic({
      root: path.relative(process.cwd(), dist),
      rewriteRequestPath: (p) => p.slice(GRAPHIQL_ASSETS.length),
    }),
  );
  return routes;
}

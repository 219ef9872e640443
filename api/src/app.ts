import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { HttpBindings } from '@hono/node-server';
import { Hono, type MiddlewareHandler } from 'hono';
import { execute } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import pino, { type Logger } from 'pino';
import { authRoutes } from './auth/rest.ts';
import { sessionRoutes } from './auth/session-routes.ts';
import { listenForEndedSessions, sessionEnded } from './auth/session-control.ts';
import { sessionIdFromAccessToken, sessionIdFromCookies, viewerForSession, type Viewer } from './auth/sessions.ts';
import { ConfigError, type Config } from './config.ts';
import type { Services } from './context.ts';
import { createEvents } from './infra/events/pubsub.ts';
import { mailerFromConfig } from './infra/mail/mailer.ts';
import { createJobQueue } from './infra/jobs/queue.ts';
import { runEvery } from './infra/jobs/schedule.ts';
import { analyzeRoutes } from './assistant/rest.ts';
import { startPhotoTagging } from './assistant/tagging.ts';
import { dataRoutes } from './rest.ts';
import { createStorage, type Storage } from './storage/service.ts';
import { isDatabaseUnavailable, openDatabase, type Database, type DatabaseSource } from './infra/db/database.ts';
import type { AppEnv } from './http/env.ts';
import { schema } from './graphql/schema.ts';
import type { GraphQLContext } from './graphql/builder.ts';
import { DomainError, TooManyRequestsError } from './shared/errors.ts';
import { startDueReminders } from './tasks/rules.ts';
import { startMailDigest } from './notifications/digest.ts';
import { importRoutes } from './imports/rest.ts';
import { importDeps, prepareImportFolder, startImportWorkers, stopImports } from './imports/rules.ts';
import { memoryRateLimiter, redisRateLimiter } from './infra/ratelimit.ts';
import { aiBudget, rateLimits } from './http/ratelimits.ts';
import { bodyGate, csrfProtection, type PageSources, securityHeaders } from './http/security.ts';
import { CONNECTION_SCRIPT_HASH } from './imports/connection-page.ts';
import { tileImageSources } from './map/rest.ts';
import { asksForUploadUrl, isUploadRoute, uploadUrlsAskedFor } from './storage/rest.ts';
import { uploadthingConnectSources } from './storage/uploadthing-routes.ts';
import { s3ConnectSources } from './storage/s3-uploads.ts';
import { clientAddressResolver } from './http/client-address.ts';
import { graphiqlRoutes, renderGraphiQL } from './graphql/graphiql.ts';
import { graphqlGuards, loadPersistedOperations, type OperationRule, operationRule } from './graphql/guards.ts';
import { useErrorReports } from './graphql/errors.ts';
import { compressAnswers } from './graphql/compression.ts';
import { routePath } from 'hono/route';
import { createMetrics, metricsRoute, type Metrics } from './infra/metrics.ts';
import { healthRoutes, localFolderCheck, type ReadinessCheck } from './http/health.ts';
import { loadPageRender } from './http/page-render.ts';
import { appPage, TAKE_OVER_SCRIPT_HASH } from './http/web-page.ts';
import { profileOf } from './users/rules.ts';
import { subscribeActivity } from './activity/subscribers.ts';
import { subscribeNotifications } from './notifications/subscribers.ts';
import { LocalObjectStore } from './infra/objects/store.ts';
import { shareSubscriptionEvents } from './live/shared-events.ts';
import { startAdminSocket } from './infra/admin-socket.ts';
import { adminCommands } from './admin/commands.ts';
import { fileArchiveRoutes } from './files/archive.ts';
import { reviewPublicRoutes } from './reviews/rest.ts';
import { galleryExportRoutes } from './galleries/exports.ts';
import { tightenDataDir, tightenPermissions } from './infra/private-files.ts';
import { accountRoutes } from './account/rest.ts';

export interface App {
  services: Services;
  /** Every route the HTTP layer serves (the authorization suite checks each data route has a case). */
  routes: { method: string; path: string }[];
  fetch: (request: Request, env?: Partial<HttpBindings>) => Promise<Response>;
  config: Config;
  database: Database;
  /** Object store, upload and serving routes, cleanup pass. */
  storage: Storage;
  secret: string;
  logger: Logger;
  /** Who a request is from, by its session cookie or its access token. */
  viewerFor(headers: Headers): Promise<Viewer | null>;
  /** Whether a session still holds (live sockets of one that ended are closed). */
  sessionIsCurrent(sessionId: string): Promise<boolean>;
  /** The GraphQL server (the WebSocket transport of subscriptions runs operations through it). */
  yoga: YogaServerInstance<{ viewer: Viewer; clientAddress?: string; requestId?: string }, GraphQLContext>;
  /** The persisted-operations rule every GraphQL transport applies (HTTP and SSE through yoga, WebSocket). */
  graphqlOperation: OperationRule;
  metrics: Metrics;
  /**
   * The first step of a shutdown: /api/ready answers 503, and every open SSE stream ends with a
   * `retry:` hint so its browser reconnects (to another instance, or to this one once restarted).
   */
  drain(): void;
  close(): Promise<void>;
}

/** What the pages load from elsewhere: the import connection page's and a rendered page's scripts, map tiles, UploadThing or the S3 bucket. */
export function pageSources(config: Config): PageSources {
  return {
    scripts: [CONNECTION_SCRIPT_HASH, TAKE_OVER_SCRIPT_HASH],
    images: tileImageSources(config.map),
    connect: [...uploadthingConnectSources(config.storage), ...s3ConnectSources(config.storage)],
  };
}

export interface AppOptions {
  /** Use this database instead of the one the configuration names (tests). */
  database?: DatabaseSource;
  logger?: Logger;
}

// Without AUTH_SECRET (development only; config refuses production) the app makes a secret once
// and keeps it in the data directory, so sessions survive restarts.
async function resolveSecret(config: Config): Promise<string> {
  const file = path.join(config.dataDir, 'auth-secret');
  if (config.auth.secret) {
    // The secret a development run made is on disk next to the data: not a production secret.
    if (
      config.env === 'production' &&
      existsSync(file) &&
      (await readFile(file, 'utf8')).trim() === config.auth.secret
    ) {
      throw new ConfigError(
        `Invalid configuration:\n  AUTH_SECRET: is the development secret kept in ${file}; make a new one for production (openssl rand -base64 32)`,
      );
    }
    return config.auth.secret;
  }
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async () => {});
  return (await readFile(file, 'utf8')).trim();
}

export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  // The data folder is the owner's alone (infra/private-files.ts): what an older release left open is closed.
  await tightenDataDir(config.dataDir, logger);
  const secret = await resolveSecret(config);
  const embeddedDir = !options.database && config.database.kind === 'embedded' ? config.database.dataDir : undefined;
  const newEmbedded = embeddedDir !== undefined && !existsSync(embeddedDir);
  const database = await openDatabase(options.database ?? config.database, {
    migrate: config.migrateOnStart || config.database.kind === 'embedded',
    logger,
  });
  if (newEmbedded) await tightenPermissions(embeddedDir);
  const db = database.prisma;
  const events = createEvents({ redisUrl: config.redisUrl, logger });
  const jobs = await createJobQueue(database, { logger });
  const mailer = await mailerFromConfig(config.mail, jobs, { logger });
  const services: Services = { config, db, events, jobs, mailer, logger };
  // What follows a domain's events: the feed's rows first, then who is told (as each domain did itself).
  subscribeActivity();
  subscribeNotifications();
  const maxAge = config.auth.sessionMaxAgeSeconds;
  const storage = createStorage(services, { secret, logger });
  const metrics = createMetrics({
    pool: database.poolStats,
    jobs: () => services.jobs.stats(),
  });

  async function viewerFor(headers: Headers): Promise<Viewer | null> {
    const bearer = headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1];
    const sessionId = bearer
      ? await sessionIdFromAccessToken(secret, bearer)
      : await sessionIdFromCookies(headers.get('cookie'), secret);
    return sessionId ? viewerForSession(db, sessionId, maxAge) : null;
  }

  const persisted = loadPersistedOperations(config.persistedOperationsFile);
  if (config.env === 'production' && persisted.size === 0) {
    throw new ConfigError(
      `Invalid configuration:\n  PERSISTED_OPERATIONS_FILE: ${config.persistedOperationsFile} is missing or empty; build the web app first (pnpm build)`,
    );
  }
  // Shared through Redis when there is one, so a budget holds across every instance.
  const limiter = config.redisUrl ? redisRateLimiter(config.redisUrl, logger) : memoryRateLimiter();
  const spendAiBudget = aiBudget(config.rateLimits, limiter);
  const graphqlOperation = operationRule(config, persisted);
  const yoga = createYoga<{ viewer: Viewer; clientAddress?: string; requestId?: string }, GraphQLContext>({
    schema,
    plugins: [
      ...graphqlGuards(config, graphqlOperation),
      useErrorReports({ logger, production: config.env === 'production' }),
      // graphql-js's own executor: yoga's default (@graphql-tools/executor) adds @defer/@stream,
      // which the app does not use, and cost about a fifth more CPU on the gallery list (bench/api.ts).
      graphqlJsExecutor,
      shareSubscriptionEvents,
      metrics.graphqlPlugin,
      compressAnswers,
    ],
    graphqlEndpoint: '/graphql',
    // The body gate (http/security.ts) reads and limits every GraphQL body; yoga's own limit would pipe
    // each body through another stream.
    maxRequestBodySize: false,
    graphiql: config.env !== 'production' ? { title: 'Scoutbase GraphQL' } : false,
    // …from the app's own assets, never a CDN (graphql/graphiql.ts).
    renderGraphiQL,
    landingPage: false,
    // Resolver failures are logged with their request id by useErrorReports instead.
    logging: false,
    context: ({ viewer, clientAddress, requestId }) => ({
      ...services,
      viewer,
      requestId,
      store: storage.store,
      // Mutations come only by HTTP POST (yoga refuses them on a WebSocket), which has the address.
      spendAiBudget: () => spendAiBudget({ user: viewer.id, address: clientAddress }),
    }),
  });

  const clientAddress = clientAddressResolver(config.trustProxy);
  const app = new Hono<AppEnv & { Bindings: Partial<HttpBindings> }>();

  app.use(async (c, next) => {
    const started = performance.now();
    c.set('clientAddress', clientAddress(c.env?.incoming?.socket.remoteAddress, c.req.header('x-forwarded-for')));
    c.set('requestId', c.req.header('x-request-id')?.slice(0, 100) || randomUUID());
    c.set('viewer', await viewerFor(c.req.raw.headers));
    await next();
    logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        // An answer written straight to Node (GraphQL) has its status there.
        status: c.env?.outgoing?.headersSent ? c.env.outgoing.statusCode : c.res.status,
        ms: Math.round(performance.now() - started),
        userId: c.get('viewer')?.id,
      },
      'request',
    );
    const status = c.env?.outgoing?.headersSent ? c.env.outgoing.statusCode : c.res.status;
    metrics.observeRequest(c.req.method, routePath(c) || '(none)', status, (performance.now() - started) / 1000);
  });

  app.use(securityHeaders(config, pageSources(config)));
  app.use(csrfProtection(config));
  app.use(bodyGate(config, isUploadRoute));

  if (config.rateLimits) app.use(rateLimits(config.rateLimits, limiter, asksForUploadUrl, uploadUrlsAskedFor));

  app.onError((error, c) => {
    if (error instanceof DomainError) {
      if (error instanceof TooManyRequestsError) c.header('Retry-After', String(error.retryAfterSeconds));
      if (error.status === 401) return c.text('Unauthorized', 401);
      return c.json({ message: error.message, code: error.code }, error.status as 400);
    }
    // A client that hung up mid-request fails the body read with ECONNRESET or 'aborted', which
    // read like a lost database: it is ordinary traffic, logged low, and nobody reads the answer.
    const incoming = c.env?.incoming;
    if (c.req.raw.signal?.aborted || incoming?.errored || (incoming?.destroyed && !incoming.complete)) {
      logger.debug({ requestId: c.get('requestId'), path: c.req.path, reason: error.message }, 'client aborted');
      return c.body(null, 499 as 400);
    }
    if (isDatabaseUnavailable(error)) {
      logger.error({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'database unavailable');
      c.header('Retry-After', '5');
      return c.json({ message: 'The database is not reachable right now. Please try again in a moment.' }, 503);
    }
    logger.error({ err: error, requestId: c.get('requestId'), path: c.req.path }, 'unhandled error');
    return c.json({ message: 'Something went wrong on our side. Please try again.' }, 500);
  });

  let draining = false;
  const readiness: Record<string, ReadinessCheck> = { database: () => db.$sql('SELECT 1', []) };
  if (config.redisUrl) readiness.redis = () => events.ping();
  readiness.storage =
    storage.store instanceof LocalObjectStore
      ? localFolderCheck(storage.store.root)
      : () => storage.store.stat('readiness-probe');
  app.route('/', healthRoutes({ checks: readiness, logger, draining: () => draining }));
  app.get('/metrics', metricsRoute(metrics, { token: config.metricsToken, production: config.env === 'production' }));
  // Before Auth.js's routes, which answer every other /api/auth/* path.
  app.route('/', sessionRoutes(services));
  app.route(
    '/',
    authRoutes({
      services,
      config,
      db,
      secret,
      rules: { allowSignup: config.auth.allowSignup, scryptCost: config.auth.scryptCost },
      limiter,
    }),
  );

  // The headers securityHeaders gives every answer, for the GraphQL answers written straight to Node.
  const probe = new Hono<AppEnv>().use(securityHeaders(config, pageSources(config))).get('/', (c) => c.body(null));
  const answerHeaders = [...(await probe.request('/')).headers].filter(([name]) => name !== 'content-type');

  if (config.env !== 'production') app.route('/', graphiqlRoutes());
  app.all('/graphql', async (c) => {
    const viewer = c.get('viewer');
    const wantsGraphiQL =
      c.req.method === 'GET' && !c.req.query('query') && (c.req.header('accept') ?? '').includes('text/html');
    if (!viewer && !wantsGraphiQL) {
      return c.json({ errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }] }, 401);
    }
    const context = { viewer: viewer as Viewer, clientAddress: c.get('clientAddress'), requestId: c.get('requestId') };
    const text = c.get('bodyText');
    const { incoming, outgoing } = c.env ?? {};
    const parsed = text ? parseObject(text) : undefined;
    const malformed = parsed && malformedOperation(parsed);
    if (malformed) {
      // Refused here, before the persisted-operations rule, so the answer is the same in every mode.
      const accept = c.req.header('accept') ?? '';
      c.header(
        'content-type',
        accept.includes('application/graphql-response+json')
          ? 'application/graphql-response+json; charset=utf-8'
          : 'application/json; charset=utf-8',
      );
      return c.body(JSON.stringify({ errors: [{ message: malformed, extensions: { code: 'BAD_REQUEST' } }] }), 400);
    }
    // whatwg-node takes an already-read body only when it has keys (malformedOperation refused `{}`).
    if (incoming && outgoing && parsed) {
      if ((c.req.header('accept') ?? '').includes('text/event-stream')) trackStream(outgoing, viewer as Viewer);
      // On a Node server yoga takes the request and answers on the socket itself: going through web
      // Request and Response objects both ways cost a fifth of a list query's CPU (bench/api.ts).
      // whatwg-node takes an already-read body from `incoming.body`: a parsed object it hands to
      // yoga as the request's json(). (A string there it would spread with Object.keys, one key per
      // character: an 8 MB body held the event loop for seconds.)
      for (const [name, value] of answerHeaders) outgoing.setHeader(name, value);
      Object.assign(incoming, { body: parsed });
      // (requestListener takes the server context as its third argument; its type leaves it out)
      const listen = yoga.requestListener as (...args: [typeof incoming, typeof outgoing, typeof context]) => unknown;
      await listen(incoming, outgoing, context);
      return RESPONSE_ALREADY_SENT;
    }
    // Anything else (a GET, broken JSON, an array) goes the web way, and yoga says what is wrong with it.
    const { raw } = c.req;
    const request =
      text === undefined ? raw : new Request(raw.url, { method: raw.method, headers: raw.headers, body: text });
    return yoga.fetch(request, context);
  });

  // Upload URLs and served objects (/objects/uploads/…) sit outside /api; storage checks who asks.
  app.route('/', storage.routes);
  // Several files as one ZIP: the files domain reads their bytes through the storage layer.
  app.route('/', fileArchiveRoutes(storage.deps));
  // A gallery as a ZIP of originals or a PDF lookbook, read through the storage layer likewise.
  app.route('/', galleryExportRoutes(storage.deps));
  // A person's own data: the export reads their bytes and the deletion removes them.
  app.route('/', accountRoutes({ ...storage.deps, secret, limiter }));
  // Imports copy bytes in through the storage layer, so they are built with it.
  const imports = importDeps(services, storage.deps, secret);
  await prepareImportFolder(services);
  // Background work of uploads (thumbnails, EXIF) and imports runs as durable jobs.
  await storage.startWorkers();
  await startImportWorkers(imports);
  app.route('/', importRoutes(imports));
  app.route('/', analyzeRoutes(services, { store: storage.store }));
  await startPhotoTagging(services, { store: storage.store });
  // People without an account, through a review link: before the session rule of dataRoutes.
  app.route('/', reviewPublicRoutes(services, { limiter, store: storage.store }));
  app.route('/', dataRoutes(services));

  app.all('/api/*', (c) => c.json({ message: `No such endpoint: ${c.req.method} ${c.req.path}` }, 404));

  if (existsSync(path.join(config.webDistDir, 'index.html'))) {
    const root = path.relative(process.cwd(), config.webDistDir);
    // The build writes .br and .gz beside each text asset, so nothing is compressed per request.
    const web = { root, precompressed: true };
    const render = await loadPageRender(config.webDistDir);
    const page = appPage(
      config.webDistDir,
      secret,
      {
        async query(c, query) {
          const viewer = c.get('viewer');
          if (!viewer) return null;
          // The same server and rules as the request the web app would send, run as this person.
          const request = new Request(new URL('/graphql', c.req.url), {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ doc_id: query.id, variables: query.variables }),
          });
          const context = { viewer, clientAddress: c.get('clientAddress'), requestId: c.get('requestId') };
          const response = await yoga.fetch(request, context);
          return response.ok ? response.text() : null;
        },
        async profile(c) {
          const viewer = c.get('viewer');
          return viewer ? profileOf(db, viewer.id) : null;
        },
      },
      render,
    );
    // Before the static files, which would answer / with index.html as it is.
    app.get('/', page);
    app.use('/*', webCacheHeaders, serveStatic(web));
    // A review link's page is its own entry (web/review.html): no session check, no app router.
    app.get('/r/*', serveStatic({ ...web, path: 'review.html' }));
    // Client-side routes: every other GET gets the app, which shows its own 404 page.
    app.get('*', page);
  }

  // Open SSE streams and whose they are, so a stream of an ended session is closed at once.
  const streams = new Map<NonNullable<HttpBindings['outgoing']>, Viewer>();
  function trackStream(outgoing: NonNullable<HttpBindings['outgoing']>, viewer: Viewer) {
    streams.set(outgoing, viewer);
    metrics.sseOpened();
    outgoing.once('close', () => {
      streams.delete(outgoing);
      metrics.sseClosed();
    });
  }
  const stopEndingStreams = listenForEndedSessions(events, (ended) => {
    for (const [outgoing, viewer] of streams) {
      // The browser's reconnect then finds no session (401).
      if (sessionEnded(ended, viewer) && !outgoing.writableEnded) outgoing.end();
    }
  });

  // Scheduled jobs: one pass per interval across every instance.
  const stopDueReminders = await startDueReminders(services, config.tasks.dueReminderIntervalMs);
  // Others' uploads to one's galleries: one digest e-mail per window (the queue's jobs end with it).
  await startMailDigest(services);
  const stopCleanup = await runEvery(jobs, 'storage.cleanup', config.storage.cleanupIntervalSeconds, storage.cleanup, {
    logger,
    timeoutSeconds: 30 * 60,
  });

  // Command-line tools reach the embedded database through this server while it runs (one writer).
  const admin =
    config.database.kind === 'embedded' && !options.database
      ? await startAdminSocket(config.dataDir, adminCommands(services, database), logger)
      : undefined;

  return {
    fetch: async (request, env = {}) => app.fetch(request, env),
    services,
    routes: app.routes.map((r) => ({ method: r.method, path: r.path })),
    config,
    database,
    storage,
    secret,
    logger,
    viewerFor,
    sessionIsCurrent: async (sessionId) => (await viewerForSession(db, sessionId, maxAge)) !== null,
    yoga,
    graphqlOperation,
    metrics,
    drain() {
      draining = true;
      for (const outgoing of streams.keys()) {
        // SSE's own reconnect hint (EventSource obeys it; the web app's reader too), then the end
        // of the stream: not `event: complete`, so the client knows to subscribe again.
        if (!outgoing.writableEnded) outgoing.end('retry: 1000\n\n');
      }
    },
    async close() {
      stopEndingStreams();
      await admin?.close();
      await stopImports(imports);
      stopDueReminders();
      stopCleanup();
      // First: running jobs finish or are handed back while what they use is still open.
      await jobs.close();
      await storage.close();
      await mailer.close();
      await events.close();
      await limiter.close();
      await database.close();
    },
  };
}

/**
 * What is wrong with a GraphQL request that names no operation at all (graphql-http's audit: 400,
 * in yoga's words): no `query` and no persisted-operation id, or a `query` that is not text.
 */
function malformedOperation(params: Record<string, unknown>): string | undefined {
  const { query } = params;
  if (typeof query === 'string') return undefined;
  if (query === undefined || query === null) {
    const extensions = params.extensions as { persistedQuery?: unknown } | undefined;
    const id = params.doc_id ?? params.documentId ?? params.id ?? extensions?.persistedQuery;
    return id === undefined || id === null ? 'Must provide query string.' : undefined;
  }
  return `Expected "query" param to be a string, but given ${Array.isArray(query) ? 'array' : typeof query}.`;
}

/** A JSON object, or undefined (broken JSON, an array, a string: yoga says what is wrong with those). */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  return undefined;
}

const graphqlJsExecutor: Plugin = { onExecute: ({ setExecuteFn }) => setExecuteFn(execute) };

/**
 * Vite puts a content hash in every name under /assets/, so those never change and browsers may
 * keep them for a year; index.html (also the answer for an unknown path) names the current ones,
 * so it is checked on every visit. A page that carries someone's data says so itself (appPage).
 */
const webCacheHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.headers.has('Cache-Control')) return;
  const hashed = c.req.path.startsWith('/assets/') && !c.res.headers.get('content-type')?.startsWith('text/html');
  c.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
};

import { timingSafeEqual } from 'node:crypto';
import { Kind, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { MiddlewareHandler } from 'hono';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QueueStats } from './jobs/queue.ts';

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export interface MetricsSources {
  /** The PostgreSQL pool (none for the embedded database, which is one connection in the process). */
  pool?: () => PoolStats | undefined;
  jobs?: () => Promise<QueueStats[]>;
}

// Operation names come from the client: outside production (where only persisted operations run)
// anyone could mint a new label per request, so names are checked and their number capped.
const OPERATION_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,79}$/;
const MAX_OPERATION_NAMES = 500;

// Seconds, 5 ms to 10 s; HTTP requests and GraphQL operations share them so their latencies compare.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The app's Prometheus metrics (prom-client). One registry per app, not prom-client's global one:
 * tests start many apps in one process, and a global registry refuses a second metric of one name.
 */
export function createMetrics(sources: MetricsSources = {}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter({
    name: 'scoutbase_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: 'scoutbase_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to the end of its handler), by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const graphqlOperations = new Counter({
    name: 'scoutbase_graphql_operations_total',
    help: 'GraphQL operations executed (subscriptions: started), by operation name, type and outcome',
    labelNames: ['operation', 'type', 'outcome'] as const,
    registers: [registry],
  });
  const graphqlDuration = new Histogram({
    name: 'scoutbase_graphql_operation_duration_seconds',
    help: 'Time to execute a GraphQL query or mutation, by operation name and type',
    labelNames: ['operation', 'type'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const websockets = new Gauge({
    name: 'scoutbase_websocket_connections',
    help: 'Open GraphQL WebSocket connections',
    registers: [registry],
  });
  const sseStreams = new Gauge({
    name: 'scoutbase_sse_connections',
    help: 'Open GraphQL server-sent-event streams',
    registers: [registry],
  });

  const pool = sources.pool;
  // Only a database with a pool has figures (the embedded one is one connection in the process).
  if (pool?.()) {
    const gauge = (name: string, help: string, read: (p: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const figures = pool();
          if (figures) this.set(read(figures));
        },
      });
    gauge('scoutbase_db_pool_connections', 'PostgreSQL connections the pool holds', (p) => p.totalCount);
    gauge('scoutbase_db_pool_idle_connections', 'PostgreSQL connections idle in the pool', (p) => p.idleCount);
    gauge(
      'scoutbase_db_pool_waiting_clients',
      'Queries waiting for a free PostgreSQL connection',
      (p) => p.waitingCount,
    );
  }

  const jobs = sources.jobs;
  if (jobs) {
    // One read of the queues per scrape, shared by the four gauges.
    let reading: Promise<QueueStats[]> | null = null;
    const read = () => {
      reading ??= jobs().finally(() => {
        reading = null;
      });
      return reading;
    };
    const queueGauge = (name: string, help: string, pick: (q: QueueStats) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'] as const,
        registers: [registry],
        async collect() {
          this.reset();
          for (const q of await read()) this.set({ queue: q.name }, pick(q));
        },
      });
    queueGauge('scoutbase_jobs_queued', 'Jobs waiting to run, by queue', (q) => q.queued);
    queueGauge('scoutbase_jobs_active', 'Jobs running now, by queue', (q) => q.active);
    queueGauge(
      'scoutbase_jobs_failed',
      'Jobs failed and not retried (pnpm jobs lists and retries them), by queue',
      (q) => q.failed,
    );
    queueGauge(
      'scoutbase_jobs_oldest_queued_seconds',
      'Age of the oldest waiting job, by queue (grows when workers fall behind)',
      (q) => q.oldestQueuedSeconds ?? 0,
    );
  }

  const operationNames = new Set<string>();
  function operationLabel(document: DocumentNode | undefined, name: string | null | undefined) {
    const operation = document?.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (!name || d.name?.value === name),
    );
    const found = name ?? operation?.name?.value;
    const type = operation?.operation ?? 'query';
    if (!found) return { operation: '(anonymous)', type };
    if (!OPERATION_NAME.test(found)) return { operation: '(other)', type };
    if (!operationNames.has(found)) {
      if (operationNames.size >= MAX_OPERATION_NAMES) return { operation: '(other)', type };
      operationNames.add(found);
    }
    return { operation: found, type };
  }

  /** Counts and times each executed operation by its name (a yoga/envelop plugin). */
  const graphqlPlugin: Plugin = {
    onExecute({ args }) {
      const started = performance.now();
      const labels = operationLabel(args.document, args.operationName);
      return {
        onExecuteDone({ result }) {
          const failed = 'errors' in result && Array.isArray(result.errors) && result.errors.length > 0;
          graphqlOperations.inc({ ...labels, outcome: failed ? 'error' : 'ok' });
          graphqlDuration.observe(labels, (performance.now() - started) / 1000);
        },
      };
    },
    onSubscribe({ args }) {
      graphqlOperations.inc({ ...operationLabel(args.document, args.operationName), outcome: 'ok' });
    },
  };

  return {
    registry,
    graphqlPlugin,
    /** One answered request; `route` is the pattern that matched (/api/galleries/:id), never the raw path. */
    observeRequest(method: string, route: string, status: number, seconds: number) {
      httpRequests.inc({ method, route, status: String(status) });
      httpDuration.observe({ method, route }, seconds);
    },
    websocketOpened: () => websockets.inc(),
    websocketClosed: () => websockets.dec(),
    sseOpened: () => sseStreams.inc(),
    sseClosed: () => sseStreams.dec(),
    async text() {
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * GET /metrics. With METRICS_TOKEN set, only `Authorization: Bearer <token>` reads it (Prometheus's
 * `authorization` scrape setting). Without one it is open outside production and off in production:
 * route patterns, operation names and queue depths tell an outsider how the instance is used.
 */
export function metricsRoute(metrics: Metrics, options: { token: string | undefined; production: boolean }) {
  const handler: MiddlewareHandler = async (c) => {
    if (options.token) {
      const given = c.req.header('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1] ?? '';
      const a = Buffer.from(given);
      const b = Buffer.from(options.token);
      if (a.length !== b.length || !timingSafeEqual(a, b)) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return c.json({ message: 'Metrics need the METRICS_TOKEN as a bearer token.' }, 401);
      }
    } else if (options.production) {
      return c.json({ message: 'Metrics are off: set METRICS_TOKEN to read them.' }, 404);
    }
    c.header('Cache-Control', 'no-store');
    return c.body(await metrics.text(), 200, { 'content-type': metrics.contentType });
  };
  return handler;
}

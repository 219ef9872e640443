import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './env.ts';

/** One part the instance needs to serve requests; it throws (or times out) when the part is not there. */
export type ReadinessCheck = () => Promise<unknown>;

// Shorter than a load balancer's usual probe timeout (5 s), so the probe gets our 503 with the
// failing part named rather than a timeout of its own.
const CHECK_TIMEOUT_MS = 3_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Storage on local disk answers when a file can be written in its folder (a permission bit says
 * little: root passes any check, and a read-only or vanished mount fails only on a write).
 */
export function localFolderCheck(folder: string): ReadinessCheck {
  return async () => {
    await mkdir(folder, { recursive: true });
    const probe = path.join(folder, `.ready-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  };
}

/**
 * GET /api/health: the process is alive and answers (a liveness probe; restart when it fails).
 * GET /api/ready: every part the instance needs answers, so it may take traffic (a readiness probe;
 * stop sending requests while it says 503). During shutdown it says 503 too, so a load balancer
 * moves traffic away before connections close. Both are public: they name parts, never errors.
 */
export function healthRoutes(options: {
  checks: Record<string, ReadinessCheck>;
  logger: Pick<Logger, 'warn'>;
  /** True once the instance is shutting down. */
  draining: () => boolean;
}) {
  const routes = new Hono<AppEnv>();
  routes.get('/api/health', (c) => c.json({ ok: true }));
  routes.get('/api/ready', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (options.draining()) {
      return c.json({ ok: false, failing: ['shutdown'], message: 'Not ready: shutting down' }, 503);
    }
    const names = Object.keys(options.checks);
    const results = await Promise.allSettled(
      names.map((name) =>
        withTimeout(Promise.resolve().then(options.checks[name] as ReadinessCheck), CHECK_TIMEOUT_MS),
      ),
    );
    const checks: Record<string, 'ok' | 'unreachable'> = {};
    const failing: string[] = [];
    results.forEach((result, i) => {
      const name = names[i] as string;
      checks[name] = result.status === 'fulfilled' ? 'ok' : 'unreachable';
      if (result.status === 'rejected') {
        failing.push(name);
        options.logger.warn({ err: result.reason, part: name }, 'readiness check failed');
      }
    });
    if (failing.length > 0) {
      c.header('Retry-After', '5');
      return c.json({ ok: false, failing, checks, message: `Not ready: ${failing.join(', ')} not answering` }, 503);
    }
    return c.json({ ok: true, checks });
  });
  return routes;
}

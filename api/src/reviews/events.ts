import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { type ReviewAccess, reviewLinkIsOpen } from './links.ts';

/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;

/**
 * The review page's own live channel (GET /api/review/:token/events, server-sent events): it
 * carries only this link's events, heard on a topic keyed by the link's id, which only a working
 * token (and, for a password link, its unlock cookie) opens. Today one event: `ended`, when the
 * link is revoked; the stream then ends. An expired link or an already revoked one gets `ended`
 * at once. Several instances share the topic through Redis like every live update.
 */
export function reviewEvents(services: Pick<Services, 'db' | 'events'>, c: Context<AppEnv>, access: ReviewAccess) {
  return streamSSE(c, async (stream) => {
    const events = services.events.subscribe('review:ended', access.linkId);
    stream.onAbort(() => void events.return?.());
    // From here on a revocation reaches this stream; one made before is seen in the database.
    await services.events.subscribed(`review:ended:${access.linkId}`);
    let open = await reviewLinkIsOpen(services.db, access.linkId);
    const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(() => {}), KEEP_ALIVE_MS);
    try {
      if (open) {
        await stream.writeSSE({ event: 'open', data: '{}' });
        const next = await events.next();
        open = next.done === true; // the reader went away: nothing to tell
      }
      if (!open && !stream.aborted) await stream.writeSSE({ event: 'ended', data: '{}' });
    } finally {
      clearInterval(keepAlive);
      await events.return?.();
    }
  });
}

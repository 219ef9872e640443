import { type Context, Hono } from 'hono';
import { compress } from 'hono/compress';
import { setCookie } from 'hono/cookie';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import { serveBytes } from '../http/serve-bytes.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import { streamGalleryPdf, streamGalleryZip } from '../galleries/exports.ts';
import {
  addGalleryComment,
  addReviewComment,
  commentJson,
  listGalleryComments,
  listGalleryPicks,
  photoFeedback,
  pickJson,
  reviewCommentJson,
  reviewPage,
  reviewPickJson,
  setReviewPick,
} from './feedback.ts';
import {
  createReviewLink,
  downloadableGallery,
  listReviewLinks,
  ReviewPasswordRequiredError,
  type ReviewAccess,
  resolveReviewLink,
  reviewLinkJson,
  reviewPhoto,
  revokeReviewLink,
  UNLOCK_COOKIE,
  unlockReviewLink,
  WrongReviewPasswordError,
} from './links.ts';
import { galleryFeedbackSummary, galleryFromPicks } from './summary.ts';
import { reviewEvents } from './events.ts';

/** Members' paths: review links of a gallery, and its comments and picks. Mounted behind the session rule. */
export function reviewMemberRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  routes.post('/api/galleries/:id/review-links', async (c) => {
    const { link, url } = await createReviewLink(viewerContext(c, services), c.req.param('id'), await readJson(c));
    return c.json(reviewLinkJson(link, url), 201);
  });

  routes.get('/api/galleries/:id/review-links', async (c) => {
    const links = await listReviewLinks(viewerContext(c, services), c.req.param('id'));
    return c.json(links.map((link) => reviewLinkJson(link)));
  });

  routes.delete('/api/review-links/:id', async (c) => {
    const link = await revokeReviewLink(viewerContext(c, services), c.req.param('id'));
    return c.json(reviewLinkJson(link));
  });

  routes.get('/api/galleries/:id/comments', async (c) => {
    const ctx = viewerContext(c, services);
    const comments = await listGalleryComments(ctx, c.req.param('id'), { fileId: c.req.query('fileId') });
    return c.json(await Promise.all(comments.map((comment) => commentJson(ctx, comment))));
  });

  routes.post('/api/galleries/:id/comments', async (c) => {
    const ctx = viewerContext(c, services);
    const comment = await addGalleryComment(ctx, c.req.param('id'), await readJson(c));
    return c.json(await commentJson(ctx, comment), 201);
  });

  routes.get('/api/galleries/:id/picks', async (c) => {
    const picks = await listGalleryPicks(viewerContext(c, services), c.req.param('id'), {
      fileId: c.req.query('fileId'),
    });
    return c.json(picks.map(pickJson));
  });

  // Totals of picks and comments, and per review link for those who manage links.
  routes.get('/api/galleries/:id/feedback', async (c) => {
    const { galleryId: _id, ...summary } = await galleryFeedbackSummary(viewerContext(c, services), c.req.param('id'));
    return c.json(summary);
  });

  // Body: { reviewLinkId?, name? }. A new gallery of the viewer's holding the picked photos.
  routes.post('/api/galleries/:id/from-picks', async (c) => {
    const ctx = viewerContext(c, services);
    const made = await galleryFromPicks(ctx, c.req.param('id'), await readJson(c));
    return c.json({ id: made.gallery.id, name: made.gallery.name, added: made.added, skipped: made.skipped }, 201);
  });

  return routes;
}

export interface ReviewPublicDeps {
  limiter: RateLimiter;
  store: ObjectStore;
}

type Handler = (c: Context<AppEnv>, access: ReviewAccess, token: string) => Promise<Response>;

/** A password the page should ask for: 401 with a message (the app answers other 401s as a lost session). */
function passwordAnswer(c: Context<AppEnv>, error: unknown) {
  if (error instanceof ReviewPasswordRequiredError || error instanceof WrongReviewPasswordError) {
    return c.json({ message: error.message, code: error.code }, 401);
  }
  throw error;
}

/**
 * A handler for a public path under /api/review/:token: the link is checked first (404 for a bad
 * token, 401 {message} while locked), then `handle` gets the one gallery it opens. The export
 * routes use it too, behind links.ts downloadableGallery (`access.allowDownload`).
 */
export function withReviewLink(services: Pick<Services, 'db'>, handle: Handler) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const token = c.req.param('token') ?? '';
    let access: ReviewAccess;
    try {
      access = await resolveReviewLink(services.db, token, c.req.header('cookie'));
    } catch (error) {
      return passwordAnswer(c, error);
    }
    // Nobody else may keep a reviewer's answers (shared caches, the back button after revoking).
    c.header('Cache-Control', 'private, no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return handle(c, access, token);
  };
}

/**
 * The public review surface: no session needed, a token reaches one gallery. Mount it before the
 * session rule of /api/*. Its rate limits are http/ratelimits.ts's 'review' rules.
 */
export function reviewPublicRoutes(services: Services, deps: ReviewPublicDeps) {
  const routes = new Hono<AppEnv>();
  const withLink = (handle: Handler) => withReviewLink(services, handle);

  routes.get(
    '/api/review/:token',
    // Opened on phones over mobile networks: the page's JSON goes compressed (the photos are already).
    compress(),
    // The map's tile settings ride along: a reviewer has no session for /api/map/config.
    withLink(async (c, access, token) =>
      c.json({ ...(await reviewPage(services.db, access, token)), map: services.config.map }),
    ),
  );

  // The page's live channel: told at once when the link is revoked (events.ts).
  routes.get(
    '/api/review/:token/events',
    withLink(async (c, access) => reviewEvents(services, c, access)),
  );

  routes.post('/api/review/:token/unlock', async (c) => {
    const token = c.req.param('token');
    let unlocked: Awaited<ReturnType<typeof unlockReviewLink>>;
    try {
      const gate = { db: services.db, config: services.config, limiter: deps.limiter };
      unlocked = await unlockReviewLink(gate, token, await readJson(c), c.get('clientAddress'));
    } catch (error) {
      return passwordAnswer(c, error);
    }
    if (unlocked) {
      // Sent back only to this link's own paths, so one unlock never opens another link.
      setCookie(c, UNLOCK_COOKIE, unlocked.value, {
        path: `/api/review/${token}`,
        httpOnly: true,
        sameSite: 'Lax',
        secure: services.config.env === 'production' || new URL(c.req.url).protocol === 'https:',
        maxAge: unlocked.maxAge,
      });
    }
    return c.json({ success: true });
  });

  routes.post(
    '/api/review/:token/comments',
    withLink(async (c, access) =>
      c.json(reviewCommentJson(await addReviewComment(services, access, await readJson(c))), 201),
    ),
  );

  routes.put(
    '/api/review/:token/picks/:fileId',
    withLink(async (c, access) =>
      c.json(reviewPickJson(await setReviewPick(services, access, c.req.param('fileId') ?? '', await readJson(c)))),
    ),
  );

  // The location package, when the link allows downloads: the same ZIP and lookbook members get.
  const linkDeps = { db: services.db, store: deps.store };
  routes.get(
    '/api/review/:token/export.zip',
    withLink(async (_c, access) => streamGalleryZip(linkDeps, downloadableGallery(access))),
  );
  routes.get(
    '/api/review/:token/export.pdf',
    withLink(async (_c, access) => {
      const galleryId = downloadableGallery(access);
      return streamGalleryPdf(linkDeps, galleryId, { annotations: await photoFeedback(services.db, galleryId) });
    }),
  );

  routes.get(
    '/api/review/:token/photos/:fileId',
    withLink(async (c, access) => {
      const photo = await reviewPhoto(linkDeps, access, c.req.param('fileId') ?? '', c.req.query('variant'));
      const headers = new Headers({
        'Content-Type': photo.contentType,
        'Cache-Control': 'private, max-age=600',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
      return serveBytes(c.req.raw, photo.bytes, headers);
    }),
  );

  return routes;
}

import { z } from 'zod';
import type { PhotoComment, PhotoPick, Prisma } from '../generated/prisma/client.ts';
import type { Services, ViewerContext } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import type { GalleryFeedback } from '../infra/events/pubsub.ts';
import { record } from '../domain-events/events.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import { galleryReaders } from '../access/rules.ts';
import { galleryFor } from '../galleries/viewer-access.ts';
import { emailFor, nameToShow } from '../users/rules.ts';
import { nameOf, userNameSelect } from '../projects/rules.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import { appLink } from '../shared/links.ts';
import { parse, requiredText } from '../shared/validation.ts';
import type { ReviewAccess } from './links.ts';
import { asPhotoOrder, inPhotoOrder } from '../galleries/order.ts';

// Comments and picks on a gallery's photos: members comment in the app, reviewers comment and
// pick through a review link. Whoever may read the gallery sees both, live.

/** A pause this long between a link's comments and picks ends one review session (one notice each). */
export const SESSION_GAP_MS = 30 * 60 * 1000;
export const PICKS = ['yes', 'no', 'maybe'] as const;

const bodyField = requiredText('Write a comment first.', 5000, 'The comment is too long (at most 5000 characters).');
const nameField = requiredText('Please give your name.', 100, 'The name is too long (at most 100 characters).');
const fileIdField = z.string({ error: 'fileId must be the id of a photo in this gallery.' });

const memberCommentInput = z.strictObject({ fileId: fileIdField, body: bodyField });
const reviewCommentInput = z.strictObject({ fileId: fileIdField, name: nameField, body: bodyField });
const reviewPickInput = z.strictObject({
  name: nameField,
  pick: z.enum(PICKS, { error: "pick must be 'yes', 'no' or 'maybe'." }),
});

/** The file must be one of the gallery's photos; any other id, existing or not, is the same 404. */
async function photoOf(db: Db | Prisma.TransactionClient, galleryId: string, fileId: unknown) {
  if (typeof fileId !== 'string' || !isUuid(fileId)) throw new NotFoundError('Photo');
  const item = await db.galleryItem.findUnique({
    where: { galleryId_fileId: { galleryId, fileId } },
    select: { fileId: true },
  });
  if (!item) throw new NotFoundError('Photo');
  return fileId;
}

async function announce(services: Services, galleryId: string, kind: GalleryFeedback['kind'], id: string) {
  for (const userId of await galleryReaders(services.db, galleryId)) {
    services.events.publish('gallery:feedback', userId, { galleryId, kind, id });
  }
}

// ───────────── members ─────────────

const commentInclude = { author: { select: { id: true, ...userNameSelect } } } as const;
type CommentRow = Prisma.PhotoCommentGetPayload<{ include: typeof commentInclude }>;

/**
 * How a member's comment is signed once its author deleted their account: the comment stays
 * (PhotoComment.author is SetNull), without author or review link.
 */
export const DELETED_USER = 'Deleted user';

/** The REST shape for members: who wrote it (a member's name, "Deleted user", or the name a reviewer gave). */
export async function commentJson(ctx: ViewerContext, c: CommentRow) {
  return {
    id: c.id,
    galleryId: c.galleryId,
    fileId: c.fileId,
    body: c.body,
    author: c.author
      ? { id: c.author.id, name: nameToShow(c.author, await emailFor(ctx, c.author)) }
      : c.reviewLinkId === null
        ? { id: null, name: DELETED_USER }
        : null,
    reviewerName: c.reviewerName,
    reviewLinkId: c.reviewLinkId,
    createdAt: c.createdAt,
  };
}

export function pickJson(p: PhotoPick) {
  return {
    id: p.id,
    galleryId: p.galleryId,
    fileId: p.fileId,
    pick: p.pick,
    reviewerName: p.reviewerName,
    reviewLinkId: p.reviewLinkId,
    updatedAt: p.updatedAt,
  };
}

const LIST_LIMIT = 1000;

export async function listGalleryComments(ctx: ViewerContext, galleryId: string, options: { fileId?: string } = {}) {
  await galleryFor(ctx, galleryId);
  const fileId = options.fileId === undefined ? undefined : await photoOf(ctx.db, galleryId, options.fileId);
  return ctx.db.photoComment.findMany({
    where: { galleryId, ...(fileId && { fileId }) },
    include: commentInclude,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: LIST_LIMIT,
  });
}

export async function listGalleryPicks(ctx: ViewerContext, galleryId: string, options: { fileId?: string } = {}) {
  await galleryFor(ctx, galleryId);
  const fileId = options.fileId === undefined ? undefined : await photoOf(ctx.db, galleryId, options.fileId);
  return ctx.db.photoPick.findMany({
    where: { galleryId, ...(fileId && { fileId }) },
    orderBy: [{ fileId: 'asc' }, { updatedAt: 'asc' }, { id: 'asc' }],
    take: LIST_LIMIT * 10,
  });
}

/**
 * The people an in-app comment mentions: `@` followed by a reader's e-mail address, the part of it
 * before the `@`, or their display or first name (without spaces), ignoring case. Only people who
 * may read the gallery can be mentioned, so a mention never tells anyone else about it.
 */
async function mentionedIn(db: Db, galleryId: string, body: string, authorId: string) {
  const handles = new Set(
    [...body.matchAll(/(?:^|[^\w@])@([\w.+-]+(?:@[\w-]+(?:\.[\w-]+)+)?)/g)].map((m) => m[1]?.toLowerCase()),
  );
  if (handles.size === 0) return [];
  const readers = (await galleryReaders(db, galleryId)).filter((id) => id !== authorId);
  const people = await db.user.findMany({ where: { id: { in: readers } }, select: { id: true, ...userNameSelect } });
  return people.filter((p) => {
    const email = p.email.toLowerCase();
    const names = [email, email.split('@')[0], p.displayName, p.firstName].map((n) =>
      n?.replace(/\s+/g, '').toLowerCase(),
    );
    return names.some((n) => n && handles.has(n));
  });
}

/** A member's comment (readers may comment too): recorded in the activity feed; mentions notify. */
export async function addGalleryComment(ctx: ViewerContext, galleryId: string, input: unknown) {
  const data = parse(memberCommentInput, input ?? {});
  const gallery = await galleryFor(ctx, galleryId);
  const fileId = await photoOf(ctx.db, galleryId, data.fileId);
  const mentioned = await mentionedIn(ctx.db, galleryId, data.body, ctx.viewer.id);
  const author = await ctx.db.user.findUniqueOrThrow({ where: { id: ctx.viewer.id }, select: userNameSelect });
  const { comment, afterCommit } = await ctx.db.$transaction(async (tx) => {
    const comment = await tx.photoComment.create({
      data: { galleryId, fileId, authorId: ctx.viewer.id, body: data.body },
      include: commentInclude,
    });
    const afterCommit = await record(tx, ctx, {
      type: 'comment.added',
      actorId: ctx.viewer.id,
      actorName: nameOf(author),
      galleryId,
      galleryName: gallery.name,
      fileId,
      commentId: comment.id,
      body: data.body,
      mentionedIds: mentioned.map((person) => person.id),
    });
    return { comment, afterCommit };
  });
  await afterCommit();
  await announce(ctx, galleryId, 'comment', comment.id);
  return comment;
}

// ───────────── reviewers ─────────────

/** A reviewer's comment as the review page shows it: nothing of the members behind the gallery. */
export function reviewCommentJson(c: PhotoComment) {
  return { id: c.id, fileId: c.fileId, name: c.reviewerName ?? '', body: c.body, createdAt: c.createdAt };
}

export function reviewPickJson(p: PhotoPick) {
  return { fileId: p.fileId, name: p.reviewerName ?? '', pick: p.pick, updatedAt: p.updatedAt };
}

interface Thumbnails {
  image?: { width?: number; height?: number; takenAt?: string; gps?: { latitude: number; longitude: number } };
  thumbnails?: { grid?: boolean; grid2x?: boolean; preview?: boolean };
}

/**
 * What a review link shows: the gallery's scouting details and its photos, addressed through the
 * link (never by object path, folder or owner), with this link's own comments and picks.
 */
export async function reviewPage(db: Db, access: ReviewAccess, token: string) {
  const gallery = await db.gallery.findUniqueOrThrow({
    where: { id: access.galleryId },
    select: {
      name: true,
      description: true,
      tags: true,
      projectName: true,
      movieTvShow: true,
      location: true,
      propertyType: true,
      style: true,
      photoOrder: true,
      items: {
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
        take: 5000,
        select: {
          id: true,
          createdAt: true,
          file: { select: { id: true, name: true, sortName: true, mimeType: true, metadata: true } },
        },
      },
    },
  });
  // Only about photos still in the gallery: one taken out is no longer the link's to show.
  const stillShown = { reviewLinkId: access.linkId, file: { galleryItems: { some: { galleryId: access.galleryId } } } };
  const [comments, picks] = await Promise.all([
    db.photoComment.findMany({ where: stillShown, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    db.photoPick.findMany({ where: stillShown, orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }] }),
  ]);
  const base = `/api/review/${token}/photos`;
  // In the gallery's order, as its members see it (galleries/order.ts).
  const { photoOrder, items: arranged, ...details } = gallery;
  const items = inPhotoOrder(arranged, asPhotoOrder(photoOrder));
  return {
    gallery: { ...details, label: access.label, allowDownload: access.allowDownload, photoCount: items.length },
    photos: items.map(({ file }) => {
      const meta = (file.metadata ?? {}) as Thumbnails;
      const url = `${base}/${file.id}`;
      return {
        id: file.id,
        name: file.name,
        mimeType: file.mimeType,
        // Without downloads the page shows the preview; the original stays home (links.ts reviewPhoto).
        url: access.allowDownload || !meta.thumbnails?.preview ? url : `${url}?variant=preview`,
        thumbnailUrl: meta.thumbnails?.grid ? `${url}?variant=grid` : null,
        // The same at twice the pixels, for phones' screens; null for photos that do not have it yet.
        thumbnail2xUrl: meta.thumbnails?.grid2x ? `${url}?variant=grid2x` : null,
        previewUrl: meta.thumbnails?.preview ? `${url}?variant=preview` : null,
        width: meta.image?.width ?? null,
        height: meta.image?.height ?? null,
        takenAt: meta.image?.takenAt ?? null,
        location: meta.image?.gps ?? null,
      };
    }),
    comments: comments.map(reviewCommentJson),
    picks: picks.map(reviewPickJson),
  };
}

/**
 * Marks a link as in use. The first comment or pick after a quiet spell opens a review session,
 * and only that one tells the owner: one notice per session, not one per comment. The conditional
 * update decides it in the database, so two comments arriving together cannot both open one.
 */
async function noteReviewSession(services: Services, access: ReviewAccess, reviewerName: string) {
  const now = new Date();
  const opened = await services.db.reviewLink.updateMany({
    where: {
      id: access.linkId,
      OR: [{ lastReviewAt: null }, { lastReviewAt: { lt: new Date(now.getTime() - SESSION_GAP_MS) } }],
    },
    data: { lastReviewAt: now },
  });
  if (opened.count === 0) {
    await services.db.reviewLink.update({ where: { id: access.linkId }, data: { lastReviewAt: now } });
    return;
  }
  const gallery = await services.db.gallery.findUniqueOrThrow({
    where: { id: access.galleryId },
    select: { name: true, ownerId: true },
  });
  const forWhom = access.label ? ` (link for ${access.label})` : '';
  const notice = await writeNotification(services.db, {
    userId: gallery.ownerId,
    type: 'other',
    title: 'Review started',
    message: `${reviewerName} is reviewing "${gallery.name}"${forWhom}.`,
    link: appLink.gallery(access.galleryId),
  });
  publishNotifications(services, [notice]);
}

export async function addReviewComment(services: Services, access: ReviewAccess, input: unknown) {
  const data = parse(reviewCommentInput, input ?? {});
  const fileId = await photoOf(services.db, access.galleryId, data.fileId);
  const comment = await services.db.photoComment.create({
    data: {
      galleryId: access.galleryId,
      fileId,
      reviewLinkId: access.linkId,
      reviewerName: data.name,
      body: data.body,
    },
  });
  await noteReviewSession(services, access, data.name);
  await announce(services, access.galleryId, 'comment', comment.id);
  return comment;
}

/** Yes / No / Maybe on a photo; the same name picking again on this link changes its pick. */
export async function setReviewPick(services: Services, access: ReviewAccess, fileId: string, input: unknown) {
  const data = parse(reviewPickInput, input ?? {});
  const photo = await photoOf(services.db, access.galleryId, fileId);
  const pick = await services.db.photoPick.upsert({
    where: {
      reviewLinkId_reviewerName_fileId: { reviewLinkId: access.linkId, reviewerName: data.name, fileId: photo },
    },
    create: {
      galleryId: access.galleryId,
      fileId: photo,
      reviewLinkId: access.linkId,
      reviewerName: data.name,
      pick: data.pick,
    },
    update: { pick: data.pick },
  });
  await noteReviewSession(services, access, data.name);
  await announce(services, access.galleryId, 'pick', pick.id);
  return pick;
}

// ───────────── for the lookbook ─────────────

export interface PhotoFeedback {
  picks: { name: string; pick: (typeof PICKS)[number] }[];
  comments: { name: string; body: string; createdAt: Date }[];
}

/**
 * Every comment and pick of a gallery, by photo, for printing (galleries/exports.ts takes the
 * lookup as its `annotations`). Names only, never e-mail addresses: a review link's download
 * goes to people outside the workspace. Access is the caller's to check first.
 */
export async function photoFeedback(db: Db, galleryId: string): Promise<(fileId: string) => PhotoFeedback | undefined> {
  const [comments, picks] = await Promise.all([
    db.photoComment.findMany({
      where: { galleryId },
      include: { author: { select: { displayName: true, firstName: true, lastName: true } } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    db.photoPick.findMany({
      where: { galleryId },
      include: { user: { select: { displayName: true, firstName: true, lastName: true } } },
      orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
    }),
  ]);
  const byFile = new Map<string, PhotoFeedback>();
  const of = (fileId: string) => {
    let entry = byFile.get(fileId);
    if (!entry) {
      entry = { picks: [], comments: [] };
      byFile.set(fileId, entry);
    }
    return entry;
  };
  for (const c of comments) {
    const name = c.author
      ? nameToShow(c.author, null)
      : (c.reviewerName ?? (c.reviewLinkId === null ? DELETED_USER : 'Reviewer'));
    of(c.fileId).comments.push({ name, body: c.body, createdAt: c.createdAt });
  }
  for (const p of picks) {
    of(p.fileId).picks.push({ name: p.user ? nameToShow(p.user, null) : (p.reviewerName ?? 'Reviewer'), pick: p.pick });
  }
  return (fileId) => byFile.get(fileId);
}

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies } from 'hono/utils/cookie';
import { z } from 'zod';
import type { ReviewLink } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import type { RateLimiter } from '../infra/ratelimit.ts';
import type { Config } from '../config.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { signInGate } from '../auth/throttle.ts';
import { galleryFor } from '../galleries/viewer-access.ts';
import { galleryAccessWhere } from '../access/rules.ts';
import type { ServedBytes } from '../http/serve-bytes.ts';
import { VARIANTS, type Variant } from '../storage/images.ts';
import { uploadBytes } from '../storage/served.ts';
import { uploadIdFrom } from '../storage/uploads.ts';
import { domainError, ForbiddenError, NotFoundError, TooManyRequestsError, ValidationError } from '../shared/errors.ts';
import { dateProblem } from '../shared/dates.ts';
import { isUuid } from '../shared/ids.ts';
import { optionalText, parse } from '../shared/validation.ts';

// Review links: people without an account reach one gallery through a token. The token is shown
// once, at creation; the table keeps only its sha256, so a copy of the database opens nothing.

/** 24 random bytes: 192 bits, 32 characters of base64url. */
const TOKEN_BYTES = 24;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;
/** How long an unlocked password-protected link stays open in that browser. */
export const UNLOCK_SECONDS = 12 * 60 * 60;
export const UNLOCK_COOKIE = 'scoutbase_review';

/** A link that needs its password first: 401 with a message, so the page asks for it. */
export class ReviewPasswordRequiredError extends domainError(401, 'PASSWORD_REQUIRED', 'This link needs a password.') {}
export class WrongReviewPasswordError extends domainError(401, 'WRONG_PASSWORD', 'That password is not right.') {}

export function hashReviewToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

function newToken() {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, tokenHash: hashReviewToken(token) };
}

/** The page a reviewer opens (the web app's /r/{token}), absolute when PUBLIC_URL is set. */
export function reviewUrl(config: Pick<Config, 'publicUrl'>, token: string) {
  return `${config.publicUrl ?? ''}/r/${token}`;
}

const expiresAtInput = z
  .union([z.date(), z.iso.datetime({ offset: true })], {
    error: 'expiresAt must be a date and time (ISO 8601, e.g. 2026-12-31T18:00:00Z).',
  })
  .transform((v) => new Date(v))
  .superRefine((d, ctx) => {
    const problem =
      dateProblem(d, 'The expiry date') ?? (d.getTime() > Date.now() ? null : 'The expiry must be in the future.');
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .nullish();

export const reviewLinkInput = z.strictObject({
  label: optionalText('Label', 200),
  expiresAt: z.preprocess((v) => (v === '' ? null : v), expiresAtInput),
  password: z
    .string({ error: 'password must be text.' })
    .max(200, 'The password is too long (at most 200 characters).')
    .transform((v) => (v === '' ? null : v))
    .refine((v) => v === null || v.length >= 4, 'The password must have at least 4 characters.')
    .nullish(),
  allowDownload: z.boolean({ error: 'allowDownload must be true or false.' }).nullish(),
});

export type ReviewLinkInput = z.input<typeof reviewLinkInput>;

/** The REST shape. `url` only right after creation: afterwards nobody, the server included, knows the token. */
export function reviewLinkJson(link: ReviewLink, url: string | null = null) {
  return {
    id: link.id,
    galleryId: link.galleryId,
    url,
    label: link.label,
    expiresAt: link.expiresAt,
    allowDownload: link.allowDownload,
    hasPassword: link.passwordHash !== null,
    revokedAt: link.revokedAt,
    active: isOpen(link),
    lastReviewAt: link.lastReviewAt,
    createdAt: link.createdAt,
  };
}

function isOpen(link: Pick<ReviewLink, 'revokedAt' | 'expiresAt'>, now = new Date()) {
  return link.revokedAt === null && (link.expiresAt === null || link.expiresAt > now);
}

const REVIEW_EDITORS = 'Only the gallery owner or an editor can manage review links.';

/** A new link to a gallery the viewer may edit: the link, and its address (shown this once). */
export async function createReviewLink(ctx: ViewerContext, galleryId: string, input: ReviewLinkInput | unknown) {
  const data = parse(reviewLinkInput, input ?? {});
  await galleryFor(ctx, galleryId, 'write', ctx.db, REVIEW_EDITORS);
  const { token, tokenHash } = newToken();
  const link = await ctx.db.reviewLink.create({
    data: {
      galleryId,
      createdById: ctx.viewer.id,
      label: data.label ?? null,
      expiresAt: data.expiresAt ?? null,
      allowDownload: data.allowDownload ?? false,
      passwordHash: data.password ? await hashPassword(data.password, ctx.config.auth.scryptCost) : null,
      tokenHash,
    },
  });
  return { link, token, url: reviewUrl(ctx.config, token) };
}

/** Every link of the gallery, newest first, revoked and expired ones too (marked as such). */
export async function listReviewLinks(ctx: ViewerContext, galleryId: string) {
  await galleryFor(ctx, galleryId, 'write', ctx.db, REVIEW_EDITORS);
  return ctx.db.reviewLink.findMany({ where: { galleryId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Ends a link at once; revoking it again changes nothing. 404 unless the viewer sees its gallery. */
export async function revokeReviewLink(ctx: ViewerContext, linkId: string) {
  if (!isUuid(linkId)) throw new NotFoundError('Review link');
  const link = await ctx.db.reviewLink.findFirst({
    where: { id: linkId, gallery: galleryAccessWhere(ctx.viewer.id) },
  });
  if (!link) throw new NotFoundError('Review link');
  await galleryFor(ctx, link.galleryId, 'write', ctx.db, REVIEW_EDITORS);
  if (link.revokedAt) return link;
  const revoked = await ctx.db.reviewLink.update({ where: { id: linkId }, data: { revokedAt: new Date() } });
  // Open review pages of this link hear it at once (reviews/events.ts) and stop showing the gallery.
  ctx.events.publish('review:ended', linkId, { linkId });
  return revoked;
}

/** Whether the link is still open now (revoked and expired links are not). */
export async function reviewLinkIsOpen(db: Db, linkId: string) {
  const link = await db.reviewLink.findUnique({ where: { id: linkId }, select: { revokedAt: true, expiresAt: true } });
  return link !== null && isOpen(link);
}

// ───────────── the public side ─────────────

/** What a working token gives: one gallery, and whether its originals may be downloaded. */
export interface ReviewAccess {
  linkId: string;
  galleryId: string;
  allowDownload: boolean;
  label: string | null;
}

async function openLink(db: Db, token: string, now: Date) {
  if (!TOKEN_SHAPE.test(token)) throw new NotFoundError('Review link');
  const link = await db.reviewLink.findUnique({ where: { tokenHash: hashReviewToken(token) } });
  if (!link || !isOpen(link, now)) throw new NotFoundError('Review link');
  return link;
}

// The unlock cookie is keyed by the link's password hash: only the server can make one, it opens
// only this link, and changing or removing the password ends every unlock given before.
function unlockSignature(link: Pick<ReviewLink, 'id' | 'passwordHash'>, expires: number) {
  return createHmac('sha256', link.passwordHash ?? '')
    .update(`${link.id}\n${expires}`)
    .digest('base64url');
}

function unlockCookieHolds(link: ReviewLink, cookieHeader: string | null | undefined, now: Date) {
  const value = cookieHeader ? parseCookies(cookieHeader, UNLOCK_COOKIE)[UNLOCK_COOKIE] : undefined;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(unlockSignature(link, expires));
  const given = Buffer.from(match[2] as string);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The gallery a review token opens, for every public review path (the page, comments, picks,
 * photos, exports). Throws NotFoundError for a malformed, unknown, revoked or expired token, and
 * ReviewPasswordRequiredError while a password-protected link has no unlock cookie of its own.
 * Exports ask downloadableGallery (`allowDownload`).
 */
export async function resolveReviewLink(
  db: Db,
  token: string,
  cookieHeader: string | null | undefined,
  now = new Date(),
): Promise<ReviewAccess> {
  const link = await openLink(db, token, now);
  if (link.passwordHash && !unlockCookieHolds(link, cookieHeader, now)) throw new ReviewPasswordRequiredError();
  return { linkId: link.id, galleryId: link.galleryId, allowDownload: link.allowDownload, label: link.label };
}

const unlockInput = z.strictObject({
  password: z
    .string({ error: 'Enter the password.' })
    .min(1, 'Enter the password.')
    .max(200, 'That password is not right.'),
});

export interface UnlockDeps {
  db: Db;
  config: Config;
  limiter: RateLimiter;
}

/**
 * Checks a link's password with the hashing and lockout of sign-in (the link counts as the
 * account): a cookie value to set, or null for a link without a password.
 */
export async function unlockReviewLink(
  deps: UnlockDeps,
  token: string,
  input: unknown,
  clientAddress: string | undefined,
  now = new Date(),
) {
  const link = await openLink(deps.db, token, now);
  if (!link.passwordHash) return null;
  const { password } = parse(unlockInput, input ?? {});
  const gate = signInGate(deps.limiter, deps.config.auth.signInThrottle);
  const account = `review-link:${link.id}`;
  const wait = await gate.enter(account, clientAddress);
  if (wait > 0) throw new TooManyRequestsError(`Too many wrong passwords. Try again in ${wait} seconds.`, wait);
  if (!(await verifyPassword(password, link.passwordHash))) throw new WrongReviewPasswordError();
  await gate.succeeded(account, clientAddress);
  const expires = Math.floor(now.getTime() / 1000) + UNLOCK_SECONDS;
  return { value: `${expires}.${unlockSignature(link, expires)}`, maxAge: UNLOCK_SECONDS };
}

// ───────────── what a link lets a reviewer take home ─────────────

const NO_DOWNLOADS = 'Downloads are not allowed on this link.';

/**
 * The gallery whose location package (the ZIP and the lookbook members get) the link lets a
 * reviewer download; 403 for a link without downloads.
 */
export function downloadableGallery(access: ReviewAccess): string {
  if (!access.allowDownload) throw new ForbiddenError(NO_DOWNLOADS);
  return access.galleryId;
}

/** The bytes of a review photo, and what to say of them. */
export interface ReviewPhoto {
  bytes: ServedBytes;
  /** The original's type, or image/webp for a thumbnail. */
  contentType: string;
}

/**
 * A photo of the link's gallery (or its grid / preview thumbnail, `variant`); any other file id
 * is a 404. A link without downloads shows pictures at preview size; the original only when
 * there is no preview.
 */
export async function reviewPhoto(
  deps: { db: Db; store: ObjectStore },
  access: ReviewAccess,
  fileId: string,
  variantParam: string | undefined,
): Promise<ReviewPhoto> {
  if (variantParam !== undefined && !(variantParam in VARIANTS)) {
    throw new ValidationError(`variant must be one of ${Object.keys(VARIANTS).join(', ')}.`, 'variant');
  }
  const variant = variantParam as Variant | undefined;
  if (!isUuid(fileId)) throw new NotFoundError('Photo');
  const item = await deps.db.galleryItem.findUnique({
    where: { galleryId_fileId: { galleryId: access.galleryId, fileId } },
    select: { file: { select: { objectPath: true, mimeType: true, metadata: true } } },
  });
  const uploadId = item ? uploadIdFrom(item.file.objectPath) : null;
  const upload = uploadId ? await deps.db.upload.findUnique({ where: { id: uploadId } }) : null;
  if (!item || !upload?.objectKey) throw new NotFoundError('Photo');
  const thumbnails = (item.file.metadata as { thumbnails?: { preview?: true } } | null)?.thumbnails;
  if (!variant && !access.allowDownload && thumbnails?.preview) throw new ForbiddenError(NO_DOWNLOADS);
  const bytes = await uploadBytes(deps.store, upload, variant, () => new NotFoundError('Photo'));
  return { bytes, contentType: variant ? 'image/webp' : item.file.mimeType };
}

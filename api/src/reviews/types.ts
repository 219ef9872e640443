import { encodeGlobalID } from '@pothos/plugin-relay';
import { PickValue } from '../generated/prisma/enums.ts';
import type { ReviewLink } from '../generated/prisma/client.ts';
import { builder } from '../graphql/builder.ts';
import { prismaEnum, rowMutation } from '../graphql/shapes.ts';
import { galleryAccessWhere } from '../access/rules.ts';
import { galleryFor } from '../galleries/viewer-access.ts';
import { ownEvents } from '../live/rules.ts';
import { rawId } from '../projects/types.ts';
import { nameToShow } from '../users/rules.ts';
import { addGalleryComment, DELETED_USER } from './feedback.ts';
import { createReviewLink, revokeReviewLink } from './links.ts';
import './summaryTypes.ts';

// Review links, comments and picks in the app's GraphQL. The public review surface is REST only
// (/api/review/{token}): GraphQL answers signed-in users alone.

export const PickValueEnum = prismaEnum(PickValue, 'PickValue', "A reviewer's verdict on a photo: yes, no or maybe.");

builder.prismaNode('ReviewLink', {
  description:
    'A link that lets people without an account review one gallery. Seen only by those who may manage it (owner, editors).',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, gallery: galleryAccessWhere(ctx.viewer.id, 'write') }),
  fields: (t) => ({
    label: t.exposeString('label', { nullable: true, description: 'Who the link is for.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    allowDownload: t.exposeBoolean('allowDownload', { description: 'May reviewers download the originals?' }),
    hasPassword: t.boolean({ select: { passwordHash: true }, resolve: (l) => l.passwordHash !== null }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    active: t.boolean({
      description: 'Neither revoked nor expired: the link opens.',
      select: { revokedAt: true, expiresAt: true },
      resolve: (l) => l.revokedAt === null && (l.expiresAt === null || l.expiresAt > new Date()),
    }),
    lastReviewAt: t.expose('lastReviewAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a reviewer last commented or picked through it.',
    }),
    gallery: t.relation('gallery'),
    createdBy: t.relation('createdBy'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaNode('PhotoComment', {
  description: "A comment on a gallery's photo, by a member or by a reviewer through a review link.",
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, gallery: galleryAccessWhere(ctx.viewer.id) }),
  fields: (t) => ({
    body: t.exposeString('body'),
    fileId: t.id({ description: 'Global id of the photo (File).', resolve: (c) => encodeGlobalID('File', c.fileId) }),
    file: t.relation('file'),
    gallery: t.relation('gallery'),
    author: t.relation('author', {
      nullable: true,
      description: 'The member who wrote it; null for a reviewer, and once the member deleted their account.',
    }),
    authorName: t.string({
      description: `Who wrote it, as shown: the member's name, the name a reviewer gave, or "${DELETED_USER}" once the member deleted their account.`,
      select: {
        reviewerName: true,
        reviewLinkId: true,
        author: { select: { displayName: true, firstName: true, lastName: true } },
      },
      resolve: (c) =>
        c.author
          ? nameToShow(c.author, null)
          : (c.reviewerName ?? (c.reviewLinkId === null ? DELETED_USER : 'Reviewer')),
    }),
    reviewerName: t.exposeString('reviewerName', {
      nullable: true,
      description: 'The name a reviewer gave; null for a member.',
    }),
    reviewLink: t.relation('reviewLink', {
      nullable: true,
      description: 'The link a reviewer came through (null for members, and for viewers who may not manage links).',
      query: (_args, ctx) => ({ where: { gallery: galleryAccessWhere(ctx.viewer.id, 'write') } }),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaNode('PhotoPick', {
  description: "A reviewer's yes / no / maybe on a photo.",
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, gallery: galleryAccessWhere(ctx.viewer.id) }),
  fields: (t) => ({
    pick: t.expose('pick', { type: PickValueEnum }),
    fileId: t.id({ description: 'Global id of the photo (File).', resolve: (p) => encodeGlobalID('File', p.fileId) }),
    file: t.relation('file'),
    reviewerName: t.exposeString('reviewerName', { nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const commentOrder = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
const pickOrder = [{ fileId: 'asc' as const }, { updatedAt: 'asc' as const }, { id: 'asc' as const }];

builder.prismaObjectFields('Gallery', (t) => ({
  reviewLinks: t.relation('reviewLinks', {
    description: 'Its review links, newest first; empty unless you may manage them (owner, editors).',
    query: (_args, ctx) => ({
      where: { gallery: galleryAccessWhere(ctx.viewer.id, 'write') },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    }),
  }),
  comments: t.relatedConnection('comments', {
    cursor: 'id',
    description: 'Comments on its photos, oldest first (members and reviewers).',
    query: { orderBy: commentOrder },
    totalCount: true,
  }),
  picks: t.relation('picks', {
    description: 'Every pick on its photos, by photo.',
    query: { orderBy: pickOrder, take: 10000 },
  }),
}));

builder.prismaObjectFields('GalleryItem', (t) => ({
  comments: t.prismaField({
    type: ['PhotoComment'],
    description: 'Comments on this photo in this gallery, oldest first.',
    select: { galleryId: true, fileId: true },
    resolve: (query, item, _args, ctx) =>
      ctx.db.photoComment.findMany({
        ...query,
        where: { galleryId: item.galleryId, fileId: item.fileId },
        orderBy: commentOrder,
        take: 1000,
      }),
  }),
  picks: t.prismaField({
    type: ['PhotoPick'],
    description: 'Who picked what on this photo.',
    select: { galleryId: true, fileId: true },
    resolve: (query, item, _args, ctx) =>
      ctx.db.photoPick.findMany({
        ...query,
        where: { galleryId: item.galleryId, fileId: item.fileId },
        orderBy: pickOrder,
        take: 1000,
      }),
  }),
}));

const CreatedReviewLink = builder.objectRef<{ link: ReviewLink; url: string }>('CreatedReviewLink').implement({
  description: 'A new review link and its address: shown this once, since only a hash of its token is kept.',
  fields: (t) => ({
    url: t.exposeString('url'),
    reviewLink: t.prismaField({
      type: 'ReviewLink',
      resolve: (query, created, _args, ctx) =>
        ctx.db.reviewLink.findUniqueOrThrow({ ...query, where: { id: created.link.id } }),
    }),
  }),
});

builder.mutationField('createReviewLink', (t) =>
  t.field({
    type: CreatedReviewLink,
    description:
      'Makes a review link to a gallery you own or may edit: optional label, expiry, password, downloads (off by default).',
    errors: {},
    args: {
      galleryId: t.arg.id({ required: true }),
      label: t.arg.string({ required: false }),
      expiresAt: t.arg({ type: 'DateTime', required: false }),
      password: t.arg.string({ required: false }),
      allowDownload: t.arg.boolean({ required: false }),
    },
    resolve: async (_root, { galleryId, ...input }, ctx) =>
      createReviewLink(
        ctx,
        rawId(galleryId, 'Gallery', 'galleryId'),
        Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      ),
  }),
);

builder.mutationField('revokeReviewLink', (t) =>
  rowMutation(t, 'ReviewLink', {
    description: 'Ends a review link at once: it answers 404 from then on.',
    args: { id: t.arg.id({ required: true }) },
    change: (args, ctx) => revokeReviewLink(ctx, rawId(args.id, 'ReviewLink', 'id')),
  }),
);

builder.mutationField('addPhotoComment', (t) =>
  rowMutation(t, 'PhotoComment', {
    description:
      'Comments on a photo of a gallery you can see; @name or @e-mail of people who can see the gallery notifies them.',
    args: {
      galleryId: t.arg.id({ required: true }),
      fileId: t.arg.id({ required: true }),
      body: t.arg.string({ required: true }),
    },
    change: (args, ctx) =>
      addGalleryComment(ctx, rawId(args.galleryId, 'Gallery', 'galleryId'), {
        fileId: rawId(args.fileId, 'File', 'fileId'),
        body: args.body,
      }),
  }),
);

const GalleryFeedbackEvent = builder
  .objectRef<{ galleryId: string; kind: 'comment' | 'pick'; id: string }>('GalleryFeedbackEvent')
  .implement({
    description: 'A comment or a pick that just arrived on a gallery.',
    fields: (t) => ({
      galleryId: t.id({ resolve: (e) => encodeGlobalID('Gallery', e.galleryId) }),
      gallery: t.prismaField({
        type: 'Gallery',
        nullable: true,
        description: 'The gallery as it is now (its feedback totals), while you may see it.',
        resolve: (query, e, _args, ctx) =>
          ctx.db.gallery.findFirst({ ...query, where: { id: e.galleryId, ...galleryAccessWhere(ctx.viewer.id) } }),
      }),
      item: t.prismaField({
        type: 'GalleryItem',
        nullable: true,
        description: "The photo's place in the gallery (its feedback counts); null once it left the gallery.",
        resolve: async (query, e, _args, ctx) => {
          const about =
            e.kind === 'comment'
              ? await ctx.db.photoComment.findUnique({ where: { id: e.id }, select: { fileId: true } })
              : await ctx.db.photoPick.findUnique({ where: { id: e.id }, select: { fileId: true } });
          if (!about) return null;
          return ctx.db.galleryItem.findFirst({
            ...query,
            where: { galleryId: e.galleryId, fileId: about.fileId, gallery: galleryAccessWhere(ctx.viewer.id) },
          });
        },
      }),
      comment: t.prismaField({
        type: 'PhotoComment',
        nullable: true,
        description: 'The new comment (null for a pick, or when it is gone or no longer yours to see).',
        resolve: (query, e, _args, ctx) =>
          e.kind === 'comment'
            ? ctx.db.photoComment.findFirst({
                ...query,
                where: { id: e.id, gallery: galleryAccessWhere(ctx.viewer.id) },
              })
            : null,
      }),
      pick: t.prismaField({
        type: 'PhotoPick',
        nullable: true,
        description: 'The new or changed pick (null for a comment).',
        resolve: (query, e, _args, ctx) =>
          e.kind === 'pick'
            ? ctx.db.photoPick.findFirst({ ...query, where: { id: e.id, gallery: galleryAccessWhere(ctx.viewer.id) } })
            : null,
      }),
    }),
  });

builder.subscriptionField('galleryFeedback', (t) =>
  t.field({
    type: GalleryFeedbackEvent,
    description: 'Comments and picks on a gallery you can see, as they arrive (for its open screen).',
    args: { galleryId: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => {
      const galleryId = rawId(args.galleryId, 'Gallery', 'galleryId');
      await galleryFor(ctx, galleryId);
      return ownEvents(ctx, 'gallery:feedback', (e) => e.galleryId === galleryId);
    },
    resolve: (e) => e,
  }),
);

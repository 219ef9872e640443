import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Gallery } from '../generated/prisma/client.ts';
import { builder } from '../graphql/builder.ts';
import { rawId } from '../projects/types.ts';
import {
  FEEDBACK_FILTERS,
  feedbackItemsWhere,
  type FeedbackTotals,
  type GalleryFeedbackSummary,
  galleryFeedbackSummary,
  galleryFromPicks,
  type LinkFeedback,
  type PhotoFeedbackCounts,
  photoFeedbackCounts,
} from './summary.ts';

// Review feedback on the owner's grid (summary.ts): per-photo counts, totals, the pick filter and
// "new gallery from picks".

export const FeedbackFilterEnum = builder.enumType('FeedbackFilter', {
  description:
    'Which photos of a gallery to list by what reviewers said: all, picked (someone said Yes), rejected (No), maybe, commented, unreviewed (no pick, no comment).',
  values: FEEDBACK_FILTERS,
});

const PhotoFeedbackCountsType = builder.objectRef<PhotoFeedbackCounts>('PhotoFeedbackCounts').implement({
  description: 'How many Yes, No and Maybe picks and comments a photo has in a gallery.',
  fields: (t) => ({
    yes: t.exposeInt('yes'),
    no: t.exposeInt('no'),
    maybe: t.exposeInt('maybe'),
    comments: t.exposeInt('comments'),
  }),
});

type Counted = Omit<FeedbackTotals, 'unreviewed' | 'photos'>;
type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The counts a summary and a link's figures share. */
function totalsFields<T extends Counted>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, T>) {
  return {
    picked: t.int({ description: 'Photos someone said Yes to.', resolve: (s) => s.picked }),
    rejected: t.int({ description: 'Photos someone said No to.', resolve: (s) => s.rejected }),
    maybe: t.int({ description: 'Photos someone said Maybe to.', resolve: (s) => s.maybe }),
    commented: t.int({ description: 'Photos with at least one comment.', resolve: (s) => s.commented }),
    comments: t.int({ description: 'Comments on its photos.', resolve: (s) => s.comments }),
  };
}

const LinkFeedbackType = builder.objectRef<LinkFeedback>('ReviewLinkFeedback').implement({
  description: 'What came in through one review link.',
  fields: (t) => ({
    ...totalsFields(t),
    reviewLinkId: t.id({ resolve: (l) => encodeGlobalID('ReviewLink', l.reviewLinkId) }),
    label: t.string({ nullable: true, description: 'Who the link is for.', resolve: (l) => l.label }),
  }),
});

const FeedbackSummaryType = builder.objectRef<GalleryFeedbackSummary>('GalleryFeedbackSummary').implement({
  description: "What reviewers said about a gallery's photos, counted over the photos it still holds.",
  fields: (t) => ({
    id: t.id({
      description: 'The same for a gallery each time, so a newer answer replaces the older one.',
      resolve: (s) => `GalleryFeedbackSummary:${s.galleryId}`,
    }),
    ...totalsFields(t),
    unreviewed: t.int({ description: 'Photos nobody picked or commented on.', resolve: (s) => s.unreviewed }),
    photos: t.int({ description: 'Photos the gallery holds.', resolve: (s) => s.photos }),
    links: t.field({
      type: [LinkFeedbackType],
      description: 'The same per review link that has feedback, newest link first; empty unless you may manage links.',
      resolve: (s) => s.links,
    }),
  }),
});

builder.prismaObjectFields('Gallery', (t) => ({
  feedbackSummary: t.field({
    type: FeedbackSummaryType,
    description: 'Totals of picks and comments (and per review link, for those who manage the links).',
    resolve: (g, _args, ctx) => galleryFeedbackSummary(ctx, g.id),
  }),
  feedbackItems: t.prismaConnection({
    type: 'GalleryItem',
    cursor: 'id',
    description: 'The photos that match a pick filter (through one review link, when given), in gallery order.',
    args: {
      filter: t.arg({ type: FeedbackFilterEnum, required: true, defaultValue: 'all' }),
      reviewLinkId: t.arg.id({ required: false }),
    },
    totalCount: async (g, args, ctx) =>
      ctx.db.galleryItem.count({ where: await feedbackItemsWhere(ctx, g.id, args.filter, linkIdOf(args)) }),
    resolve: async (query, g, args, ctx) =>
      ctx.db.galleryItem.findMany({
        ...query,
        where: await feedbackItemsWhere(ctx, g.id, args.filter, linkIdOf(args)),
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
      }),
  }),
}));

function linkIdOf(args: { reviewLinkId?: string | null }) {
  return args.reviewLinkId ? rawId(args.reviewLinkId, 'ReviewLink', 'reviewLinkId') : null;
}

builder.prismaObjectFields('GalleryItem', (t) => ({
  feedback: t.field({
    type: PhotoFeedbackCountsType,
    description: 'Picks and comments on this photo in this gallery, counted (one statement per page of items).',
    select: { galleryId: true, fileId: true },
    resolve: (item, _args, ctx, info) => photoFeedbackCounts(ctx, item, { keep: info.operation.operation === 'query' }),
  }),
}));

const GalleryFromPicksType = builder
  .objectRef<{ gallery: Gallery; added: number; skipped: number }>('GalleryFromPicks')
  .implement({
    description: 'A new gallery made of the picked photos.',
    fields: (t) => ({
      gallery: t.prismaField({
        type: 'Gallery',
        resolve: (query, made, _args, ctx) =>
          ctx.db.gallery.findUniqueOrThrow({ ...query, where: { id: made.gallery.id } }),
      }),
      added: t.exposeInt('added', { description: 'Picked photos it holds.' }),
      skipped: t.exposeInt('skipped', { description: 'Picked photos left out: added to the source by someone else.' }),
    }),
  });

builder.mutationField('createGalleryFromPicks', (t) =>
  t.field({
    type: GalleryFromPicksType,
    description:
      'Makes a new gallery of yours holding the photos reviewers said Yes to (through one review link, or any), in order. Only photos you added are copied.',
    errors: {},
    args: {
      galleryId: t.arg.id({ required: true }),
      reviewLinkId: t.arg.id({ required: false }),
      name: t.arg.string({ required: false }),
    },
    resolve: (_root, args, ctx) =>
      galleryFromPicks(ctx, rawId(args.galleryId, 'Gallery', 'galleryId'), {
        reviewLinkId: linkIdOf(args),
        ...(args.name != null && { name: args.name }),
      }),
  }),
);

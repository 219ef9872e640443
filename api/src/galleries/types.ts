import type { GraphQLResolveInfo } from 'graphql';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { type Gallery, Prisma } from '../generated/prisma/client.ts';
import { GalleryStyle, PropertyType, SharePermission, ShareStatus } from '../generated/prisma/enums.ts';
import type { ViewerContext } from '../context.ts';
import { builder, loadNodeWith } from '../graphql/builder.ts';
import { firstPageTake } from '../graphql/connections.ts';
import { prismaEnum, removalMutation, rowMutation } from '../graphql/shapes.ts';
import { rawId } from '../projects/types.ts';
import { ValidationError } from '../shared/errors.ts';
import { galleryAccessWhere, visibleShareWhere } from '../access/rules.ts';
import { ownEvents } from '../live/rules.ts';
import { photoOrderOf } from './orderTypes.ts';
import { accessFrom, type GALLERY_ACTIONS, galleryFor, mayDo } from './viewer-access.ts';
import { createGallery, deleteGallery, updateGallery } from './rules.ts';
import {
  firstItemsReadWith,
  type GalleryCardFacts,
  galleryCardFacts,
  galleryCardsPage,
  galleryItemsPage,
  galleryListQuery,
  inOrderOf,
  readableGalleryWithFacts,
} from './listing.ts';
import { GALLERY_SORTS } from './input.ts';
import { revokeShare, shareGallery } from './shares.ts';
import { addFilesToGallery, moveGalleryItem, removeFileFromGallery } from './items.ts';

export const PropertyTypeEnum = prismaEnum(PropertyType, 'PropertyType', 'The kind of place a gallery shows.');

export const GalleryStyleEnum = prismaEnum(GalleryStyle, 'GalleryStyle', 'The look of the place a gallery shows.');

export const GallerySortEnum = builder.enumType('GallerySort', {
  description: 'Orders of the gallery list; recent (newest first) by default, the others A to Z with blanks last.',
  values: GALLERY_SORTS,
});

export const SharePermissionEnum = prismaEnum(
  SharePermission,
  'SharePermission',
  "read ('View Only', the default) or write ('Edit Access': edit the gallery and add files).",
);

export const ShareStatusEnum = prismaEnum(ShareStatus, 'ShareStatus', 'Only active shares give access.');

export const GalleryAccessEnum = builder.enumType('GalleryAccess', {
  description: 'What the signed-in user may do with a gallery: owner (everything), write (edit, add files), read.',
  values: ['owner', 'write', 'read'] as const,
});

type GalleryFieldBuilder = Parameters<
  NonNullable<Parameters<typeof builder.prismaNode<'Gallery', never>>[1]['fields']>
>[0];

/** A card field, read from the gallery's card facts. */
function fromCard<T>(
  ctx: ViewerContext,
  gallery: { id: string },
  info: GraphQLResolveInfo,
  read: (facts: GalleryCardFacts) => T,
) {
  const facts = galleryCardFacts(ctx, gallery, { keep: info.operation.operation === 'query' });
  return facts instanceof Promise ? facts.then(read) : read(facts);
}

function viewerMay(t: GalleryFieldBuilder, action: keyof typeof GALLERY_ACTIONS, description: string) {
  return t.boolean({
    description,
    select: { ownerId: true },
    resolve: (g, _args, ctx, info) =>
      fromCard(ctx, g, info, (facts) => mayDo(accessFrom(ctx.viewer.id, g.ownerId, facts.writeShared), action)),
  });
}

builder.prismaNode('Gallery', {
  description: 'A collection of photos of a location, with its scouting details.',
  id: { field: 'id' },
  // node(id:) reaches only galleries the viewer owns or that are shared with a project of theirs.
  findUnique: (id, ctx) => ({ id, AND: [galleryAccessWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    tags: t.exposeStringList('tags'),
    projectName: t.exposeString('projectName', { nullable: true }),
    movieTvShow: t.exposeString('movieTvShow', { nullable: true }),
    location: t.exposeString('location', { nullable: true }),
    propertyType: t.expose('propertyType', { type: PropertyTypeEnum, nullable: true }),
    style: t.expose('style', { type: GalleryStyleEnum, nullable: true }),
    status: t.exposeString('status', { description: "Free text; 'active' unless set." }),
    isPublic: t.exposeBoolean('isPublic'),
    notes: t.exposeString('notes', { nullable: true, description: 'Notes the team keeps together.' }),
    photoCount: t.int({
      description: 'How many photos the gallery holds.',
      resolve: (g, _args, ctx, info) => fromCard(ctx, g, info, (facts) => facts.photoCount),
    }),
    coverImageUrl: t.string({
      nullable: true,
      description: "The cover photo's URL (its object path; add ?variant=grid for cards), if a cover is set.",
      resolve: (g, _args, ctx, info) => fromCard(ctx, g, info, (facts) => facts.coverPath),
    }),
    coverImage2xUrl: t.string({
      nullable: true,
      description:
        "The cover's grid thumbnail at twice the pixels (?variant=grid2x), for high-density screens; " +
        'null without a cover or while the cover does not have it yet.',
      resolve: (g, _args, ctx, info) =>
        fromCard(ctx, g, info, (facts) =>
          facts.coverPath && facts.coverGrid2x ? `${facts.coverPath}?variant=grid2x` : null,
        ),
    }),
    coverImageId: t.id({
      nullable: true,
      description: 'Global id of the cover file, if a cover is set.',
      select: { coverImageId: true },
      resolve: (g) => (g.coverImageId ? encodeGlobalID('File', g.coverImageId) : null),
    }),
    coverImage: t.relation('coverImage', { nullable: true, description: 'The cover photo, if one is set.' }),
    owner: t.relation('owner'),
    viewerAccess: t.field({
      type: GalleryAccessEnum,
      description: 'What the signed-in user may do with this gallery.',
      select: { ownerId: true },
      resolve: (g, _args, ctx, info) =>
        fromCard(ctx, g, info, (facts) => accessFrom(ctx.viewer.id, g.ownerId, facts.writeShared)),
    }),
    viewerCanEdit: viewerMay(t, 'edit', 'May the signed-in user edit details, photos and notes?'),
    viewerCanShare: viewerMay(t, 'share', 'May the signed-in user share it with projects and revoke shares?'),
    viewerCanDelete: viewerMay(t, 'delete', 'May the signed-in user delete it?'),
    items: t.prismaConnection({
      type: 'GalleryItem',
      cursor: 'id',
      description: 'The photos in gallery order (keyset pages: fast at any depth).',
      totalCount: (g, _args, ctx, info) => fromCard(ctx, g, info, (facts) => facts.photoCount),
      resolve: async (query, g, _args, ctx) => {
        const { take, skip = 0, cursor } = query as typeof query & { skip?: number; cursor?: { id: string } };
        const order = await photoOrderOf(ctx, g);
        const forward = typeof take === 'number' && take > 0 && skip === (cursor ? 1 : 0);
        if (forward && onlyItemsAndFiles(query))
          return (
            (!cursor && firstItemsReadWith(g, take)) || galleryItemsPage(ctx, g.id, { take, after: cursor?.id, order })
          );
        if (order === 'manual')
          return ctx.db.galleryItem.findMany({ ...query, where: { galleryId: g.id }, orderBy: ITEM_ORDER });
        if (!forward) throw new ValidationError('Photos in a sorted gallery page forward only.', 'last');
        const ids = (await galleryItemsPage(ctx, g.id, { take, after: cursor?.id, order })).map((i) => i.id);
        const { cursor: _c, skip: _s, take: _t, ...rest } = query as typeof query & { skip?: number; cursor?: object };
        return inOrderOf(ids, await ctx.db.galleryItem.findMany({ ...rest, where: { id: { in: ids } } }));
      },
    }),
    shares: t.relation('shares', {
      description: 'Projects the gallery is shared with: all of them for the owner, your own projects for members.',
      query: (_args, ctx) => ({
        where: visibleShareWhere(ctx.viewer.id),
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// The gallery screen asks for the first page of photos with the gallery: one statement reads both.
loadNodeWith('Gallery', (ctx, id, info) =>
  readableGalleryWithFacts(ctx, id, { firstItems: firstPageTake(info, 'Gallery', 'items') }),
);

builder.prismaNode('GalleryItem', {
  description: 'A file placed in a gallery, at a position.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, gallery: galleryAccessWhere(ctx.viewer.id) }),
  fields: (t) => ({
    position: t.exposeInt('position', { description: 'Order in the gallery, lowest first.' }),
    fileId: t.id({ description: 'Global id of the file.', resolve: (item) => encodeGlobalID('File', item.fileId) }),
    name: t.string({ select: { file: { select: { name: true } } }, resolve: (item) => item.file.name }),
    url: t.string({
      description: "The file's object path (add ?variant=grid, ?variant=grid2x or ?variant=preview for thumbnails).",
      select: { file: { select: { objectPath: true } } },
      resolve: (item) => item.file.objectPath,
    }),
    mimeType: t.string({ select: { file: { select: { mimeType: true } } }, resolve: (item) => item.file.mimeType }),
    file: t.relation('file', { description: 'The file itself: tags, metadata, thumbnails.' }),
    gallery: t.relation('gallery'),
    addedBy: t.relation('addedBy'),
    addedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaNode('GalleryShare', {
  description: 'A gallery shared with a project: its members may view it (read) or also edit it (write).',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, AND: [visibleShareWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    permission: t.expose('permission', { type: SharePermissionEnum }),
    status: t.expose('status', { type: ShareStatusEnum }),
    project: t.relation('project'),
    gallery: t.relation('gallery'),
    sharedBy: t.relation('sharedBy'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const galleryColumns = new Set<string>(Object.values(Prisma.GalleryScalarFieldEnum));

const ITEM_ORDER = [{ position: 'asc' }, { id: 'asc' }] satisfies Prisma.GalleryItemOrderByWithRelationInput[];
const itemColumns = new Set<string>(Object.values(Prisma.GalleryItemScalarFieldEnum));
const fileColumns = new Set<string>(Object.values(Prisma.FileScalarFieldEnum));

/** Whether a selection of items asks for nothing beyond their columns and their files' columns: what galleryItemsPage reads. */
function onlyItemsAndFiles(query: { include?: object; select?: object }) {
  const onlyColumns = (shape: unknown, columns: Set<string>) =>
    shape === true ||
    (typeof shape === 'object' &&
      shape !== null &&
      Object.entries(
        (shape as { include?: object; select?: object }).include ?? (shape as { select?: object }).select ?? {},
      ).every(([key]) => columns.has(key)));
  return Object.entries(query.include ?? query.select ?? {}).every(
    ([key, value]) => itemColumns.has(key) || (key === 'file' && onlyColumns(value, fileColumns)),
  );
}

/**
 * The cards statement's rows carry every column; the relations and counts a client's selection
 * asks for beyond them (owner, shares, photos) are loaded for the whole page in one statement,
 * onto the same row objects, which the card fields know.
 */
async function withRelationsAsked(
  ctx: ViewerContext,
  page: Gallery[],
  query: { include?: Prisma.GalleryInclude; select?: Prisma.GallerySelect },
) {
  const asked = Object.entries(query.include ?? query.select ?? {}).filter(([key]) => !galleryColumns.has(key));
  if (asked.length === 0 || page.length === 0) return page;
  const related = await ctx.db.gallery.findMany({
    where: { id: { in: page.map((g) => g.id) } },
    select: { id: true, ...Object.fromEntries(asked) },
  });
  const byId = new Map(related.map((row) => [row.id, row]));
  return page.map((g) => Object.assign(g, byId.get(g.id)));
}

builder.queryField('galleries', (t) =>
  t.prismaConnection({
    type: 'Gallery',
    cursor: 'id',
    description:
      'Galleries you own or that are shared with your projects. search matches name, description, movie/TV show, location and tags, ignoring case.',
    args: {
      search: t.arg.string({ required: false }),
      sort: t.arg({ type: GallerySortEnum, required: false }),
    },
    totalCount: async (_connection, args, ctx) => {
      const { where } = await galleryListQuery(ctx, args);
      return ctx.db.gallery.count({ where });
    },
    resolve: async (query, _root, args, ctx) => {
      // Forward pages, from the start or a cursor (every screen's), are the cards statement's.
      const { take, skip = 0, cursor } = query as typeof query & { skip?: number; cursor?: { id: string } };
      if (typeof take === 'number' && take > 0 && skip === (cursor ? 1 : 0)) {
        const page = await galleryCardsPage(ctx, { ...args, take, after: cursor?.id });
        return withRelationsAsked(ctx, page, query);
      }
      const { where, orderBy } = await galleryListQuery(ctx, args);
      if (!orderBy) throw new ValidationError('Galleries sorted by property type or style page forward only.', 'last');
      return ctx.db.gallery.findMany({ ...query, where, orderBy });
    },
  }),
);

const galleryFields = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  description: t.arg.string({ required: false }),
  tags: t.arg.stringList({ required: false, description: 'Each entry may hold several comma-separated tags.' }),
  projectName: t.arg.string({ required: false }),
  movieTvShow: t.arg.string({ required: false }),
  location: t.arg.string({ required: false }),
  propertyType: t.arg({ type: PropertyTypeEnum, required: false }),
  style: t.arg({ type: GalleryStyleEnum, required: false }),
  status: t.arg.string({ required: false }),
  isPublic: t.arg.boolean({ required: false }),
  notes: t.arg.string({ required: false }),
});

/** GraphQL leaves omitted arguments out; the rules read undefined as "leave as is". */
function defined(args: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

builder.mutationField('createGallery', (t) =>
  rowMutation(t, 'Gallery', {
    description: "Creates a gallery. Name required ('Gallery name is required.'); status 'active' by default.",
    args: { name: t.arg.string({ required: true }), ...galleryFields(t) },
    change: (args, ctx) => createGallery(ctx, defined(args)),
  }),
);

builder.mutationField('updateGallery', (t) =>
  rowMutation(t, 'Gallery', {
    description:
      'Edits a gallery (owner or write share). Omitted arguments stay; null clears. The cover must be a photo in the gallery.',
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string({ required: false }),
      coverImageId: t.arg.id({ required: false }),
      ...galleryFields(t),
    },
    change: ({ id, coverImageId, ...args }, ctx) => {
      const galleryId = rawId(id, 'Gallery', 'id');
      const input = defined(args);
      if (coverImageId !== undefined) input.coverImageId = coverImageId && rawId(coverImageId, 'File', 'coverImageId');
      return updateGallery(ctx, galleryId, input);
    },
  }),
);

builder.mutationField('deleteGallery', (t) =>
  removalMutation(t, 'Gallery', {
    description: 'Deletes a gallery you own (its files stay). Answers its global id.',
    args: { id: t.arg.id({ required: true }) },
    change: async (args, ctx) => {
      const galleryId = rawId(args.id, 'Gallery', 'id');
      await deleteGallery(ctx, galleryId);
      return { id: galleryId };
    },
  }),
);

builder.mutationField('addFilesToGallery', (t) =>
  rowMutation(t, 'Gallery', {
    description:
      'Adds your files to a gallery you may edit, after the photos already there, in the order given; files already in it are skipped.',
    args: { galleryId: t.arg.id({ required: true }), fileIds: t.arg.idList({ required: true }) },
    change: async (args, ctx) => {
      const galleryId = rawId(args.galleryId, 'Gallery', 'galleryId');
      await addFilesToGallery(
        ctx,
        galleryId,
        args.fileIds.map((id) => rawId(id, 'File', 'fileIds')),
      );
      return { id: galleryId };
    },
  }),
);

builder.mutationField('removeFileFromGallery', (t) =>
  rowMutation(t, 'Gallery', {
    description: 'Takes a file out of a gallery you may edit (the file itself stays).',
    args: { galleryId: t.arg.id({ required: true }), fileId: t.arg.id({ required: true }) },
    change: async (args, ctx) => {
      const galleryId = rawId(args.galleryId, 'Gallery', 'galleryId');
      await removeFileFromGallery(ctx, galleryId, rawId(args.fileId, 'File', 'fileId'));
      return { id: galleryId };
    },
  }),
);

builder.mutationField('moveGalleryItem', (t) =>
  rowMutation(t, 'GalleryItem', {
    description:
      'Moves a photo to just before another one, or to the end when beforeFileId is null; with afterFileId ' +
      'instead, to just after another one (the last photo a page shows, when more follow it).',
    args: {
      galleryId: t.arg.id({ required: true }),
      fileId: t.arg.id({ required: true }),
      beforeFileId: t.arg.id({ required: false }),
      afterFileId: t.arg.id({ required: false }),
    },
    change: (args, ctx) => {
      const galleryId = rawId(args.galleryId, 'Gallery', 'galleryId');
      const before = args.beforeFileId ? rawId(args.beforeFileId, 'File', 'beforeFileId') : null;
      const after = args.afterFileId ? rawId(args.afterFileId, 'File', 'afterFileId') : null;
      return moveGalleryItem(ctx, galleryId, rawId(args.fileId, 'File', 'fileId'), before, after);
    },
  }),
);

builder.mutationField('shareGallery', (t) =>
  rowMutation(t, 'GalleryShare', {
    description:
      "Shares your gallery with one of your projects (read by default). Sharing again changes the permission. 'Please select a project to share with.' without a project.",
    args: {
      galleryId: t.arg.id({ required: true }),
      projectId: t.arg.id({ required: false }),
      permission: t.arg({ type: SharePermissionEnum, required: false }),
    },
    change: (args, ctx) => {
      const galleryId = rawId(args.galleryId, 'Gallery', 'galleryId');
      const projectId = args.projectId ? rawId(args.projectId, 'Project', 'projectId') : null;
      return shareGallery(ctx, galleryId, { projectId, permission: args.permission });
    },
  }),
);

builder.mutationField('revokeGalleryShare', (t) =>
  removalMutation(t, 'GalleryShare', {
    description:
      "Ends a share of your gallery; the project's members lose access at once. Answers the share's global id.",
    args: { id: t.arg.id({ required: true }) },
    change: (args, ctx) => revokeShare(ctx, rawId(args.id, 'GalleryShare', 'id')),
  }),
);

const GalleryItemsChangedEvent = builder.objectRef<{ galleryId: string }>('GalleryItemsChangedEvent').implement({
  description: 'Photos were added to or taken out of a gallery you can see.',
  fields: (t) => ({
    galleryId: t.id({ resolve: (e) => encodeGlobalID('Gallery', e.galleryId) }),
  }),
});

builder.subscriptionField('galleryItemsChanged', (t) =>
  t.field({
    type: GalleryItemsChangedEvent,
    description:
      'Each time photos are added to or taken out of a gallery you can see (only the one named, when galleryId is given): read it again.',
    args: { galleryId: t.arg.id({ required: false }) },
    subscribe: async (_root, args, ctx) => {
      if (!args.galleryId) return ownEvents(ctx, 'gallery:items');
      const galleryId = rawId(args.galleryId, 'Gallery', 'galleryId');
      await galleryFor(ctx, galleryId);
      return ownEvents(ctx, 'gallery:items', (e) => e.galleryId === galleryId);
    },
    resolve: (e) => e,
  }),
);

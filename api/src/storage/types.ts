import { builder } from '../graphql/builder.ts';
import { viewerOnlyUserField } from '../graphql/shapes.ts';
import type { ImageInfo, Variant } from './images.ts';
import { storageUsage, type StorageUsage } from './rules.ts';

// Storage's fields on types other domains own: where a file's bytes and thumbnails are served
// from, what its picture showed (EXIF), and how much room a user has left.

interface ServerMetadata {
  image?: ImageInfo;
  thumbnails?: Partial<Record<Variant, boolean>>;
  processing?: boolean;
}

function serverMetadata(metadata: unknown): ServerMetadata {
  return metadata && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as ServerMetadata) : {};
}

const ThumbnailSize = builder.enumType('ThumbnailSize', {
  description:
    'GRID: about 400 px on the longer side, for cards. GRID_2X: about 800 px, the same cards on a high-density ' +
    'screen (null for pictures that do not have it yet). PREVIEW: about 1600 px, for the lightbox.',
  values: { GRID: { value: 'grid' }, GRID_2X: { value: 'grid2x' }, PREVIEW: { value: 'preview' } } as const,
});

const GpsPosition = builder.objectRef<{ latitude: number; longitude: number }>('GpsPosition').implement({
  description: 'Where a photo was taken, from its EXIF GPS tags.',
  fields: (t) => ({
    latitude: t.exposeFloat('latitude'),
    longitude: t.exposeFloat('longitude'),
  }),
});

const ImageDetails = builder.objectRef<ImageInfo>('ImageDetails').implement({
  description: 'What the server read from a picture: its upright size and EXIF facts.',
  fields: (t) => ({
    width: t.exposeInt('width'),
    height: t.exposeInt('height'),
    takenAt: t.exposeString('takenAt', {
      nullable: true,
      description: 'The camera’s clock when the photo was taken (ISO 8601; an offset only when the camera gave one).',
    }),
    camera: t.exposeString('camera', { nullable: true }),
    lens: t.exposeString('lens', { nullable: true }),
    orientation: t.exposeInt('orientation', { nullable: true, description: 'EXIF orientation 1–8.' }),
    gps: t.field({ type: GpsPosition, nullable: true, resolve: (i) => i.gps ?? null }),
  }),
});

builder.prismaObjectFields('File', (t) => ({
  url: t.string({
    description: 'Where the current bytes are served (only to people who may see the file).',
    select: { objectPath: true },
    resolve: (f) => f.objectPath,
  }),
  thumbnailUrl: t.string({
    nullable: true,
    description: 'A WebP thumbnail of a picture; null for other files.',
    args: { size: t.arg({ type: ThumbnailSize, defaultValue: 'grid', required: true }) },
    select: { objectPath: true, metadata: true },
    resolve: (f, args) =>
      serverMetadata(f.metadata).thumbnails?.[args.size] ? `${f.objectPath}?variant=${args.size}` : null,
  }),
  processing: t.boolean({
    description:
      'True while the server is still reading a picture after its upload (EXIF facts, thumbnails): ' +
      'thumbnailUrl and image are null until then, and the uploadProcessed subscription says when it is done.',
    select: { metadata: true },
    resolve: (f) => serverMetadata(f.metadata).processing === true,
  }),
  image: t.field({
    type: ImageDetails,
    nullable: true,
    description: 'Size and EXIF facts of a picture (dimensions, taken at, camera, lens, GPS); null for other files.',
    select: { metadata: true },
    resolve: (f) => serverMetadata(f.metadata).image ?? null,
  }),
}));

const StorageUsageType = builder.objectRef<StorageUsage>('StorageUsage').implement({
  description: 'Bytes a user keeps (files, their versions, uploads not filed yet) and their quota.',
  fields: (t) => ({
    usedBytes: t.exposeFloat('usedBytes'),
    quotaBytes: t.exposeFloat('quotaBytes'),
    availableBytes: t.float({ resolve: (u) => Math.max(0, u.quotaBytes - u.usedBytes) }),
    percentUsed: t.float({
      description: '0–100, with two decimals.',
      resolve: (u) => Math.min(100, Math.round((u.usedBytes / u.quotaBytes) * 10000) / 100),
    }),
  }),
});

viewerOnlyUserField(
  'storage',
  StorageUsageType,
  'Storage used and the quota; only for the signed-in user (null for anyone else).',
  (ctx) => storageUsage(ctx, ctx.viewer.id),
);

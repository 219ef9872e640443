import { z } from 'zod';
import type { GalleryStyle, PropertyType } from '../generated/prisma/client.ts';
import { optionalText, requiredText } from '../shared/validation.ts';
import { GALLERY_LIMITS } from './limits.ts';
import { photoOrderInput } from './order.ts';

// What a gallery's details may be: the choices, the sorts of the list, and the checks of a new or
// edited gallery.

export const PROPERTY_TYPES = [
  'residential',
  'commercial',
  'industrial',
  'outdoor',
  'studio',
] as const satisfies readonly PropertyType[];
export const GALLERY_STYLES = [
  'modern',
  'vintage',
  'rustic',
  'minimalist',
  'industrial',
  'traditional',
] as const satisfies readonly GalleryStyle[];
export const GALLERY_SORTS = ['recent', 'name', 'project', 'location', 'propertyType', 'style', 'status'] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

/** "a, b,,c " and ["a", " b,c"] both become ["a", "b", "c"]: trimmed, empties dropped, no repeats. */
export function splitTags(value: string | string[]): string[] {
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(','));
  return [...new Set(parts.map((t) => t.trim()).filter((t) => t !== ''))];
}

// An empty select sends '' (the spec forbids empty option values, so '' only ever means "none").
const optionalChoice = <T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z
    .union([z.literal(''), z.enum(values)], { error: `${label} must be one of ${values.join(', ')}.` })
    .transform((v) => (v === '' ? null : v))
    .nullish();

const nameField = requiredText(
  'Gallery name is required.',
  GALLERY_LIMITS.name,
  `Gallery name is too long (at most ${GALLERY_LIMITS.name} characters).`,
);

const galleryFields = {
  description: optionalText('Description', GALLERY_LIMITS.description),
  tags: z
    .union([z.string(), z.array(z.string({ error: 'Tags must be text.' }))], {
      error: 'Tags must be a list or a comma-separated text.',
    })
    .transform(splitTags)
    .pipe(
      z
        .array(z.string().max(GALLERY_LIMITS.tag, `A tag is too long (at most ${GALLERY_LIMITS.tag} characters).`))
        .max(GALLERY_LIMITS.tags, `At most ${GALLERY_LIMITS.tags} tags.`),
    )
    .nullish(),
  projectName: optionalText('Project name', GALLERY_LIMITS.projectName),
  movieTvShow: optionalText('Movie / TV show', GALLERY_LIMITS.movieTvShow),
  location: optionalText('Location', GALLERY_LIMITS.location),
  propertyType: optionalChoice('Property type', PROPERTY_TYPES),
  style: optionalChoice('Style', GALLERY_STYLES),
  status: optionalText('Status', 50),
  isPublic: z.boolean({ error: 'isPublic must be true or false.' }).nullish(),
  notes: optionalText('Notes', 20000),
};

export const galleryCreateInput = z.strictObject({ name: nameField, ...galleryFields });
export const galleryUpdateInput = z.strictObject({
  name: nameField.optional(),
  ...galleryFields,
  coverImageId: z.string({ error: 'coverImageId must be a file id.' }).nullish(),
  photoOrder: photoOrderInput.optional(),
});

export type GalleryCreateInput = z.input<typeof galleryCreateInput>;
export type GalleryUpdateInput = z.input<typeof galleryUpdateInput>;

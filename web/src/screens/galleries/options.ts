// The galleries screen's fixed vocabularies and form rules.
import { GALLERY_LIMITS } from '../../../../api/src/galleries/limits.ts';
import { choiceFrom, choices } from '../../lib/choices.ts';

/** Tags are comma-separated, trimmed, empty entries dropped (and repeated ones kept once). */
export function parseTags(text: string): string[] {
  const tags: string[] = [];
  const lower = new Set<string>();
  for (const part of text.split(',')) {
    const tag = part.trim();
    if (!tag || lower.has(tag.toLowerCase())) continue;
    lower.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

/** A card shows at most 3 tags plus '+N'. */
export function visibleTags(tags: readonly string[], max = 3): { shown: string[]; more: string | null } {
  return { shown: tags.slice(0, max), more: tags.length > max ? `+${tags.length - max}` : null };
}

export const GALLERY_SORTS = choices({
  recent: 'Most Recent',
  name: 'Name',
  project: 'Project',
  location: 'Location',
  propertyType: 'Property Type',
  style: 'Style',
  status: 'Status',
});
export type GallerySort = (typeof GALLERY_SORTS)[number]['value'];

export function gallerySortFrom(value: string | null | undefined): GallerySort {
  return choiceFrom(GALLERY_SORTS, value, 'recent');
}

export const PROPERTY_TYPES = choices({
  residential: 'Residential',
  commercial: 'Commercial',
  industrial: 'Industrial',
  outdoor: 'Outdoor',
  studio: 'Studio',
});

export const STYLES = choices({
  modern: 'Modern',
  vintage: 'Vintage',
  rustic: 'Rustic',
  minimalist: 'Minimalist',
  industrial: 'Industrial',
  traditional: 'Traditional',
});

export const STATUSES = choices({ active: 'Active', archived: 'Archived' });

export interface GalleryForm {
  name: string;
  description: string;
  tags: string;
  projectName: string;
  movieTvShow: string;
  location: string;
  propertyType: string;
  style: string;
  status: string;
  isPublic: boolean;
}

export const EMPTY_GALLERY_FORM: GalleryForm = {
  name: '',
  description: '',
  tags: '',
  projectName: '',
  movieTvShow: '',
  location: '',
  propertyType: '',
  style: '',
  status: 'active',
  isPublic: false,
};

/** The input the server takes, or the spec's message when the form cannot be sent. */
export function galleryInput(form: GalleryForm):
  | { error: string; field: keyof GalleryForm }
  | {
      input: {
        name: string;
        description: string | null;
        tags: string[];
        projectName: string | null;
        movieTvShow: string | null;
        location: string | null;
        propertyType: string | null;
        style: string | null;
        status: string;
        isPublic: boolean;
      };
    } {
  const name = form.name.trim();
  if (!name) return { error: 'Gallery name is required.', field: 'name' };
  const optional = (value: string) => value.trim() || null;
  // The API's limits, said by the field before sending (the inputs also stop there).
  const limited = [
    ['name', 'Gallery name'],
    ['description', 'Description'],
    ['projectName', 'Project name'],
    ['movieTvShow', 'Movie / TV show'],
    ['location', 'Location'],
  ] as const;
  for (const [field, label] of limited) {
    const max = GALLERY_LIMITS[field];
    if (form[field].trim().length > max) return { error: `${label} is too long (at most ${max} characters).`, field };
  }
  const tags = parseTags(form.tags);
  if (tags.some((tag) => tag.length > GALLERY_LIMITS.tag))
    return { error: `A tag is too long (at most ${GALLERY_LIMITS.tag} characters).`, field: 'tags' };
  if (tags.length > GALLERY_LIMITS.tags) return { error: `At most ${GALLERY_LIMITS.tags} tags.`, field: 'tags' };
  return {
    input: {
      name,
      description: optional(form.description),
      tags,
      projectName: optional(form.projectName),
      movieTvShow: optional(form.movieTvShow),
      location: optional(form.location),
      propertyType: form.propertyType || null,
      style: form.style || null,
      status: form.status || 'active',
      isPublic: form.isPublic,
    },
  };
}

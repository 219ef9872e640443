import { describe, expect, it } from 'vitest';
import {
  EMPTY_GALLERY_FORM,
  GALLERY_SORTS,
  galleryInput,
  gallerySortFrom,
  PROPERTY_TYPES,
  parseTags,
  STYLES,
  visibleTags,
} from './options.ts';
import { projectInput } from '../projects/options.ts';

describe('gallery form rules', () => {
  it('parses comma-separated tags, trimmed, empty entries dropped', () => {
    expect(parseTags(' loft, , warehouse ,Loft,  brick ')).toEqual(['loft', 'warehouse', 'brick']);
    expect(parseTags('')).toEqual([]);
  });

  it('shows at most 3 tags plus +N', () => {
    expect(visibleTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: '+2' });
    expect(visibleTags(['a', 'b', 'c'])).toEqual({ shown: ['a', 'b', 'c'], more: null });
  });

  it('requires a gallery name after trimming', () => {
    expect(galleryInput({ ...EMPTY_GALLERY_FORM, name: '   ' })).toEqual({
      error: 'Gallery name is required.',
      field: 'name',
    });
    expect(galleryInput({ ...EMPTY_GALLERY_FORM, name: 'X'.repeat(201) })).toEqual({
      error: 'Gallery name is too long (at most 200 characters).',
      field: 'name',
    });
    expect(galleryInput({ ...EMPTY_GALLERY_FORM, name: 'Loft', location: 'L'.repeat(501) })).toMatchObject({
      field: 'location',
    });
    expect(galleryInput({ ...EMPTY_GALLERY_FORM, name: 'Loft', tags: `ok, ${'t'.repeat(101)}` })).toMatchObject({
      field: 'tags',
    });
    const result = galleryInput({ ...EMPTY_GALLERY_FORM, name: ' Loft ', tags: 'a, b', propertyType: 'studio' });
    expect(result).toEqual({
      input: {
        name: 'Loft',
        description: null,
        tags: ['a', 'b'],
        projectName: null,
        movieTvShow: null,
        location: null,
        propertyType: 'studio',
        style: null,
        status: 'active',
        isPublic: false,
      },
    });
  });

  it('requires a project name and defaults the type to campaign', () => {
    expect(projectInput({ name: ' ', description: '', type: '' })).toEqual({ error: 'Project name is required.' });
    expect(projectInput({ name: 'Ad', description: '', type: '' })).toEqual({
      input: { name: 'Ad', description: null, type: 'campaign' },
    });
  });

  it('offers the seven sorts with recent as the default', () => {
    expect(GALLERY_SORTS.map((s) => s.value)).toEqual([
      'recent',
      'name',
      'project',
      'location',
      'propertyType',
      'style',
      'status',
    ]);
    expect(gallerySortFrom(undefined)).toBe('recent');
    expect(gallerySortFrom('style')).toBe('style');
  });
});

describe('label sorts', () => {
  // The API sorts property type and style by their values as text (api/src/galleries/listing.ts);
  // that is the A to Z the user reads only while the labels keep the values' order.
  it.each([
    ['property types', PROPERTY_TYPES],
    ['styles', STYLES],
  ] as const)('%s: labels A to Z are values A to Z', (_name, options) => {
    const byValue = [...options].sort((a, b) => (a.value < b.value ? -1 : 1)).map((o) => o.label);
    expect(byValue).toEqual([...options].map((o) => o.label).sort((a, b) => a.localeCompare(b)));
  });
});

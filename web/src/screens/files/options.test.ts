import { describe, expect, it } from 'vitest';
import {
  fileSortFrom,
  folderPathText,
  searchCompleteText,
  searchHint,
  serverSearchTerm,
  sortFiles,
} from './options.ts';

const files = [
  { name: 'b.png', mimeType: 'image/png', size: 10, createdAt: '2026-01-02T00:00:00Z' },
  { name: 'A.pdf', mimeType: 'application/pdf', size: 300, createdAt: '2026-01-01T00:00:00Z' },
  { name: 'c.mp4', mimeType: 'video/mp4', size: 20, createdAt: '2026-01-03T00:00:00Z' },
];

describe('file manager options', () => {
  it('searches the server only above 2 characters', () => {
    expect(serverSearchTerm('ab')).toBeNull();
    expect(serverSearchTerm('  ab  ')).toBeNull();
    expect(serverSearchTerm('abc')).toBe('abc');
    expect(serverSearchTerm(null)).toBeNull();
  });

  it('sorts by recent, name, type and size (largest first)', () => {
    expect(sortFiles(files, 'recent').map((f) => f.name)).toEqual(['c.mp4', 'b.png', 'A.pdf']);
    expect(sortFiles(files, 'name').map((f) => f.name)).toEqual(['A.pdf', 'b.png', 'c.mp4']);
    expect(sortFiles(files, 'type').map((f) => f.name)).toEqual(['A.pdf', 'b.png', 'c.mp4']);
    expect(sortFiles(files, 'size').map((f) => f.size)).toEqual([300, 20, 10]);
  });

  it('falls back to recent for unknown sorts and counts matches', () => {
    expect(fileSortFrom('bogus')).toBe('recent');
    expect(fileSortFrom('size')).toBe('size');
    expect(searchCompleteText(1)).toBe('Found 1 file matching your search.');
    expect(searchCompleteText(3)).toBe('Found 3 files matching your search.');
  });
});

describe('search hint and result folders', () => {
  it('asks for a third character while the query is too short for the server search', () => {
    expect(searchHint('ab')).toBe('Type at least 3 characters to search all folders');
    expect(searchHint(' a ')).toBe('Type at least 3 characters to search all folders');
    expect(searchHint('')).toBeNull();
    expect(searchHint('   ')).toBeNull();
    expect(searchHint('abc')).toBeNull();
  });

  it('says where a result is, from the top level down', () => {
    expect(folderPathText(['Scouting', 'Barns'])).toBe('Root › Scouting › Barns');
    expect(folderPathText([])).toBe('Root');
    // Another person's file, seen through a shared gallery: their folders are theirs.
    expect(folderPathText(null)).toBe('Shared with you');
  });
});

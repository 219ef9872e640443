import { countOf } from '../../lib/format.ts';
import { choiceFrom, choices } from '../../lib/choices.ts';

// The file manager's sort options and search rule.

export const FILE_SORTS = choices({ recent: 'Most Recent', name: 'Name', type: 'Type', size: 'Size (largest first)' });
export type FileSort = (typeof FILE_SORTS)[number]['value'];

export function fileSortFrom(value: string | null | undefined): FileSort {
  return choiceFrom(FILE_SORTS, value, 'recent');
}

/** The sort as the files query's FileSort argument takes it. */
export function fileSortArgument(sort: FileSort): string {
  return sort.toUpperCase();
}

/** The server search runs only for queries longer than 2 characters. */
export function serverSearchTerm(query: string | null | undefined): string | null {
  const term = (query ?? '').trim();
  return term.length > 2 ? term : null;
}

/**
 * Under 3 characters the list only narrows the open folder by name, so an empty result would say
 * nothing about the other folders: say what it takes to search them all.
 */
export function searchHint(query: string): string | null {
  const term = query.trim();
  return term.length > 0 && serverSearchTerm(term) === null ? 'Type at least 3 characters to search all folders' : null;
}

/** Where a search result is ("Root › Scouting › Barns"), so two files of one name tell apart. */
export function folderPathText(path: readonly string[] | null | undefined): string {
  return path ? ['Root', ...path].join(' › ') : 'Shared with you';
}

interface Sortable {
  name: string;
  mimeType: string;
  size: number;
  createdAt: string;
}

/** Orders a page of files in the browser the same way the server would. */
export function sortFiles<T extends Sortable>(files: readonly T[], sort: FileSort): T[] {
  const copy = [...files];
  switch (sort) {
    case 'name':
      return copy.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
    case 'type':
      return copy.sort((a, b) => a.mimeType.localeCompare(b.mimeType) || a.name.localeCompare(b.name));
    case 'size':
      return copy.sort((a, b) => b.size - a.size);
    default:
      return copy.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }
}

export function searchCompleteText(count: number) {
  return `Found ${countOf(count, 'file')} matching your search.`;
}

import type { PickValue, ReviewComment, ReviewPick } from './reviewApi.ts';

export const PICK_CHOICES: readonly { value: PickValue; label: string }[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'maybe', label: 'Maybe' },
  { value: 'no', label: 'No' },
];

/** A reviewer's name is remembered per link: the same phone may review for two productions. */
export function nameKey(token: string) {
  return `scoutbase.review.name.${token}`;
}

export function storedName(storage: Pick<Storage, 'getItem'> | undefined, token: string): string {
  try {
    return storage?.getItem(nameKey(token))?.trim() ?? '';
  } catch {
    // Private browsing may refuse storage; the name is then asked again next visit.
    return '';
  }
}

export function storeName(storage: Pick<Storage, 'setItem'> | undefined, token: string, name: string) {
  try {
    storage?.setItem(nameKey(token), name.trim());
  } catch {
    // See storedName.
  }
}

/** The server keeps one pick per name and photo: a new one replaces the old, wherever it was. */
export function withPick(picks: readonly ReviewPick[], pick: ReviewPick): ReviewPick[] {
  return [...picks.filter((p) => !(p.fileId === pick.fileId && p.name === pick.name)), pick];
}

export function pickOf(picks: readonly ReviewPick[], fileId: string, name: string): PickValue | null {
  if (!name) return null;
  return picks.find((p) => p.fileId === fileId && p.name === name)?.pick ?? null;
}

export function commentsOf(comments: readonly ReviewComment[], fileId: string) {
  return comments.filter((c) => c.fileId === fileId);
}

/** How many comments each photo has, for the badges on the grid. */
export function commentCounts(comments: readonly ReviewComment[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of comments) counts.set(c.fileId, (counts.get(c.fileId) ?? 0) + 1);
  return counts;
}

/** The token of a review link's address, or null for every other path. */
export function reviewTokenOf(pathname: string): string | null {
  const match = /^\/r\/([^/]+)\/?$/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

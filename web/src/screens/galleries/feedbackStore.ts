import type { RecordProxy } from 'relay-runtime';

/**
 * Adds `record` at the end of `parent`'s list field, once. A new comment reaches the store twice
 * (the author's mutation answer and the gallery's live feed, in either order), and a changed pick
 * is already in the list. A list never read is left alone: whoever reads it next fetches it whole.
 */
export function appendLinkedOnce(
  parent: RecordProxy | null | undefined,
  field: string,
  record: RecordProxy | null | undefined,
) {
  if (!parent || !record) return;
  const list = parent.getLinkedRecords(field);
  if (!list) return;
  const id = record.getDataID();
  if (list.some((r) => r?.getDataID() === id)) return;
  parent.setLinkedRecords([...list, record], field);
}

export const PICK_LABELS: Record<string, string> = { yes: 'Yes', no: 'No', maybe: 'Maybe' };

/** Who wrote a comment or made a pick: the member's name, else the name the reviewer gave. */
export function feedbackAuthor(entry: {
  readonly author?: { readonly displayName: string } | null;
  readonly reviewerName?: string | null;
}): string {
  // Neither a member nor a reviewer: the member deleted their account, and the comment stayed.
  return entry.author?.displayName ?? (entry.reviewerName ? `${entry.reviewerName} (reviewer)` : 'Deleted user');
}

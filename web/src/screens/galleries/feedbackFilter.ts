// The grid's pick filter ("show what the director said Yes to"), kept in the address as ?feedback=.
import { choices } from '../../lib/choices.ts';

export const FEEDBACK_FILTERS = choices({
  all: 'All',
  picked: 'Picked',
  rejected: 'Rejected',
  maybe: 'Maybe',
  commented: 'Commented',
  unreviewed: 'Unreviewed',
});

export type FeedbackFilter = (typeof FEEDBACK_FILTERS)[number]['value'];

/** The filter an address asks for; anything unknown is all photos. */
export function feedbackFilterFrom(value: string | null | undefined): FeedbackFilter {
  return FEEDBACK_FILTERS.find((f) => f.value === value)?.value ?? 'all';
}

/** The screen query's variables for a filter: the filtered list is only read when one is chosen. */
export function feedbackVariables(value: string | null | undefined) {
  const feedback = feedbackFilterFrom(value);
  return { feedback, filtered: feedback !== 'all' };
}

export interface FeedbackCounts {
  readonly yes: number;
  readonly no: number;
  readonly maybe: number;
  readonly comments: number;
}

/** What a photo's badges say, for people who cannot see them: "2 Yes, 1 comment". */
export function feedbackLabel(counts: FeedbackCounts): string {
  const parts = [
    counts.yes && `${counts.yes} Yes`,
    counts.no && `${counts.no} No`,
    counts.maybe && `${counts.maybe} Maybe`,
    counts.comments && `${counts.comments} ${counts.comments === 1 ? 'comment' : 'comments'}`,
  ].filter(Boolean);
  return parts.join(', ');
}

import { type FeedbackCounts, feedbackLabel } from './feedbackFilter.ts';

const tone = {
  yes: 'bg-emerald-700 text-white',
  no: 'bg-red-700 text-white',
  maybe: 'bg-amber-300 text-slate-950',
  comments: 'bg-slate-900 text-white',
} as const;

// Marks every font has (an emoji may show as a box where no emoji font is installed).
const marks = { yes: '✓', no: '✕', maybe: '?', comments: '“' } as const;

/**
 * A photo's picks and comment count on its grid tile; nothing for a photo nobody reviewed. The
 * tile's label says the same in words, so the marks are drawn by CSS from `data-mark`: no text of
 * their own that would differ from the tile's accessible name.
 */
export function FeedbackBadges({ counts }: { counts?: FeedbackCounts | null }) {
  if (!counts) return null;
  const label = feedbackLabel(counts);
  if (!label) return null;
  return (
    <span
      className="pointer-events-none absolute right-1 bottom-1 left-1 flex flex-wrap justify-end gap-1"
      data-testid="photo-feedback"
      title={label}
    >
      {(['yes', 'no', 'maybe', 'comments'] as const).map((kind) =>
        counts[kind] > 0 ? (
          <span
            key={kind}
            aria-hidden="true"
            data-mark={`${marks[kind]} ${counts[kind]}`}
            className={`rounded px-1.5 py-0.5 text-xs leading-none font-semibold shadow after:content-[attr(data-mark)] ${tone[kind]}`}
          />
        ) : null,
      )}
    </span>
  );
}

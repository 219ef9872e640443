import type { PickValue, ReviewPhoto } from './reviewApi.ts';
import { PICK_CHOICES } from './reviewState.ts';

const pickTone: Record<PickValue, string> = {
  yes: 'bg-green-700 text-white border-green-700',
  maybe: 'bg-amber-700 text-white border-amber-700',
  no: 'bg-red-700 text-white border-red-700',
};

/** A reviewer's Yes / Maybe / No on one photo, under it in the grid and in the lightbox. */
export function PickButtons({
  photo,
  current,
  onPick,
  dark = false,
}: {
  photo: ReviewPhoto;
  current: PickValue | null;
  onPick: (pick: PickValue) => void;
  dark?: boolean;
}) {
  const idle = dark
    ? 'border-white/30 text-white hover:bg-white/10'
    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800';
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form fieldset
    <div role="group" aria-label={`Your pick for ${photo.name}`} className="grid grid-cols-3 gap-1">
      {PICK_CHOICES.map((choice) => (
        <button
          key={choice.value}
          type="button"
          aria-pressed={current === choice.value}
          onClick={() => onPick(choice.value)}
          className={`min-h-9 rounded-md border px-1 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
            current === choice.value ? pickTone[choice.value] : idle
          }`}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}

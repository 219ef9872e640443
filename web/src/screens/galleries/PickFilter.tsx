import { useSearchParams } from 'react-router-dom';
import { replaceParam } from '../../routing/searchParams.ts';
import { FEEDBACK_FILTERS, type FeedbackFilter, feedbackFilterFrom } from './feedbackFilter.ts';

/** The chosen pick filter, from the address (?feedback=), and a way to change it there. */
export function useFeedbackFilter(): [FeedbackFilter, (value: FeedbackFilter) => void] {
  const [params, setParams] = useSearchParams();
  const set = (value: FeedbackFilter) => replaceParam(setParams, 'feedback', value === 'all' ? null : value);
  return [feedbackFilterFrom(params.get('feedback')), set];
}

/** All / Picked / Rejected / Maybe / Commented / Unreviewed: which photos the grid shows. */
export function PickFilter({ value, onChange }: { value: FeedbackFilter; onChange: (value: FeedbackFilter) => void }) {
  return (
    <fieldset className="min-w-0" data-testid="pick-filter">
      <legend className="sr-only">Show photos by feedback</legend>
      <div className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-900">
        {FEEDBACK_FILTERS.map((f) => (
          <label
            key={f.value}
            className="cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 has-checked:bg-white has-checked:text-slate-900 has-checked:shadow-sm has-focus-visible:ring-2 has-focus-visible:ring-indigo-500 dark:text-slate-300 dark:has-checked:bg-slate-800 dark:has-checked:text-slate-100"
          >
            <input
              type="radio"
              name="feedback-filter"
              value={f.value}
              checked={value === f.value}
              onChange={() => onChange(f.value)}
              className="sr-only"
            />
            {f.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

import type { SetURLSearchParams } from 'react-router-dom';

/**
 * Puts `value` in the address as `name`, or takes `name` out when there is none (null or ''),
 * replacing the history entry: a filter or a sort is not a page to go back to.
 */
export function replaceParam(setParams: SetURLSearchParams, name: string, value: string | null) {
  setParams(
    (current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    },
    { replace: true },
  );
}

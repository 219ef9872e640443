// The one rule for every date a person types (a task's due date, a review link's expiry): years
// 1900 to 2100. The API checks the instant it receives; the web forms check the year typed in the
// field, before sending, with the same words. Plain functions, so the web app imports this file.

export const EARLIEST_YEAR = 1900;
export const LATEST_YEAR = 2100;

const HOUR = 3_600_000;
// Midnight of 1 January 1900 where the day starts first (UTC+14), to the end of 31 December 2100
// where it ends last (UTC-12): a date inside the years in the writer's own zone always passes.
const EARLIEST = Date.UTC(EARLIEST_YEAR, 0, 1) - 14 * HOUR;
const LATEST = Date.UTC(LATEST_YEAR + 1, 0, 1) + 12 * HOUR;

/** "Due date must be between 1900 and 2100." */
export function dateRangeMessage(label: string) {
  return `${label} must be between ${EARLIEST_YEAR} and ${LATEST_YEAR}.`;
}

/** What is wrong with an instant the API received, or null when it is a date from 1900 to 2100. */
export function dateProblem(date: Date, label: string): string | null {
  const time = date.getTime();
  if (Number.isNaN(time) || time < EARLIEST || time >= LATEST) return dateRangeMessage(label);
  return null;
}

/**
 * What is wrong with the year of a date or datetime-local field's value ("2026-05-01T10:00"), or
 * null when it is empty or in range. Browsers let the year run to six digits and down to 0001.
 */
export function dateInputProblem(value: string, label: string): string | null {
  if (value === '') return null;
  const year = /^(\d{4,6})-\d{2}-\d{2}/.exec(value)?.[1];
  const n = Number(year);
  return !year || n < EARLIEST_YEAR || n > LATEST_YEAR ? dateRangeMessage(label) : null;
}

/** The min and max attributes of a field of `type` (date or datetime-local) that keep to the rule. */
export function dateInputBounds(type: 'date' | 'datetime-local') {
  const time = type === 'date' ? '' : 'T00:00';
  const end = type === 'date' ? '' : 'T23:59';
  return { min: `${EARLIEST_YEAR}-01-01${time}`, max: `${LATEST_YEAR}-12-31${end}` };
}

// How long, in words, the one way for every screen and message: a task's card ("Overdue by 5 days",
// web/src/lib/format.ts) and its reminder ('"Van" is overdue by 5 days.', api/src/tasks/rules.ts)
// count the same whole units, so they never disagree. Nothing here imports anything that runs: the
// web's compiler reads this file.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const countOf = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A length of time in its largest whole unit, rounded down: "1 minute" (never less), "59 minutes",
 * "23 hours", "5 days" (5 days and 23 hours is still 5 days).
 */
export function timeSpan(ms: number): string {
  const span = Math.abs(ms);
  if (span < HOUR) return countOf(Math.max(1, Math.floor(span / MINUTE)), 'minute');
  if (span < DAY) return countOf(Math.floor(span / HOUR), 'hour');
  return countOf(Math.floor(span / DAY), 'day');
}

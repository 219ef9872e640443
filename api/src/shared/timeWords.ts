// How long, in words, the one way for every screen and message: a task's card ("Overdue by 5 days",
// web/src/lib/format.ts) and its reminder ('"Van" is overdue by 5 days.', api/src/tasks/rules.ts)
// count the same whole units, so they never disagree. Nothing here imports anything that runs: the
// web's compiler reads this file.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const countOf = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * A length of time in its largest whole unit: "1 minute" (never less), "59 minutes", "23 hours",
 * "5 days". Time gone by is rounded down (5 days and 23 hours late is still 5 days, as the task's
 * card counts); time to come is rounded (a task due in 59 minutes 58 seconds is due "in 1 hour").
 */
export function timeSpan(ms: number, round: (n: number) => number = Math.floor): string {
  const span = Math.abs(ms);
  const minutes = Math.max(1, round(span / MINUTE));
  if (minutes < 60) return countOf(minutes, 'minute');
  const hours = round(span / HOUR);
  if (hours < 24) return countOf(hours, 'hour');
  return countOf(round(span / DAY), 'day');
}

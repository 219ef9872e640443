import { timeSpan } from '../../../api/src/shared/timeWords.ts';
import { serverPage } from './serverPage.ts';

// Display formats. Every function takes `now` so tests can pin the clock.

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 1536 → "1.5 KB": powers of 1024, rounded to two decimals, GB the largest unit. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${Number.parseFloat(value.toFixed(2))} ${SIZE_UNITS[exponent]}`;
}

/** Bytes as megabytes for the dashboard's "Storage Used" card. */
export function formatMegabytes(bytes: number): string {
  return Number.parseFloat((bytes / (1024 * 1024)).toFixed(2)).toString();
}

let pinnedNow: Date | undefined;
/**
 * Relative times ("5m ago") as of `at` until released: a page rendered on the server is taken over
 * with the times it was rendered with (main.tsx), else the two would differ across a minute's turn.
 */
export function pinNow(at: Date | undefined) {
  pinnedNow = at;
}
const currentTime = () => serverPage()?.now ?? pinnedNow ?? new Date();
/** The zone dates are shown in: the browser's own, or on the server the browser's as it said. */
const zone = () => serverPage()?.timeZone;

function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** Notifications: "Just now", "5m ago", "3h ago", "2d ago". */
export function formatNotificationTime(value: Date | string, now: Date = currentTime()): string {
  const elapsed = now.getTime() - toDate(value).getTime();
  if (elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return `${Math.floor(elapsed / DAY)}d ago`;
}

/** The activity feed: like notifications, then a short date ("Mar 9") after seven days. */
export function formatActivityTime(value: Date | string, now: Date = currentTime()): string {
  const date = toDate(value);
  if (now.getTime() - date.getTime() < 7 * DAY) return formatNotificationTime(date, now);
  return date.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: zone(),
    ...(yearOf(date) === yearOf(now) ? {} : { year: 'numeric' }),
  });
}

/** Galleries and files: "Just now", "5 minutes ago", "5h ago", "1 day ago", "3 days ago". */
export function formatAge(value: Date | string, now: Date = currentTime()): string {
  const elapsed = now.getTime() - toDate(value).getTime();
  if (elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) return `${countOf(Math.floor(elapsed / MINUTE), 'minute')} ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  if (elapsed < 2 * DAY) return '1 day ago';
  return `${Math.floor(elapsed / DAY)} days ago`;
}

/** The calendar day of `date` in the shown zone, as a UTC midnight (days between them are whole). */
function calendarDay(date: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone(),
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(date);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'));
}
const yearOf = (date: Date) => new Date(calendarDay(date)).getUTCFullYear();

function calendarDaysBetween(from: Date, to: Date): number {
  return Math.round((calendarDay(to) - calendarDay(from)) / DAY);
}

/** "1 file", "3 files": a count and its unit, plural unless one. */
export function countOf(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * A task's due date: once the due time has passed it is overdue by the time elapsed ("Overdue by
 * 3 hours", "Overdue by 2 days"), never "Due today"; before that, in the user's calendar days:
 * "Due today", "Due tomorrow", "Due in 5 days".
 */
export function formatTaskDue(due: Date | string, now: Date = currentTime()): string {
  const date = toDate(due);
  const late = now.getTime() - date.getTime();
  // The same count as the overdue reminder's (api/src/shared/timeWords.ts).
  if (late > 0) return `Overdue by ${timeSpan(late)}`;
  const days = calendarDaysBetween(now, date);
  if (days === 0) return 'Due today';
  if (days === 1) return 'Due tomorrow';
  return `Due in ${days} days`;
}

/** Overdue = still pending and due before now (derived, never stored). */
export function isOverdue(task: { status: string; dueDate?: string | null }, now: Date = currentTime()): boolean {
  return task.status === 'pending' && task.dueDate != null && new Date(task.dueDate).getTime() < now.getTime();
}

/** "Mar 9, 2025" */
export function formatDate(value: Date | string): string {
  return toDate(value).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: zone(),
  });
}

/** "Mar 9, 2025, 3:04 PM" */
export function formatDateTime(value: Date | string): string {
  return toDate(value).toLocaleString('en-US', {
    timeZone: zone(),
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The notification badge: the count, or "99+" above 99. */
export function formatBadgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** Initials for an avatar: first letters of first and last name, else of the name or e-mail. */
export function initials(person: {
  firstName?: string | null;
  lastName?: string | null;
  displayName?: string | null;
  email?: string | null;
}): string {
  const first = person.firstName?.trim();
  const last = person.lastName?.trim();
  if (first || last) return `${first?.[0] ?? ''}${last?.[0] ?? ''}`.toUpperCase();
  const name = person.displayName?.trim() || person.email?.trim() || '?';
  const words = name.split(/\s+/);
  return ((words[0]?.[0] ?? '') + (words.length > 1 ? (words.at(-1)?.[0] ?? '') : '')).toUpperCase();
}

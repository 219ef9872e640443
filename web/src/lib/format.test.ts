import { describe, expect, it } from 'vitest';
import {
  formatActivityTime,
  formatAge,
  formatBadgeCount,
  formatFileSize,
  formatMegabytes,
  formatNotificationTime,
  formatTaskDue,
  initials,
  isOverdue,
} from './format.ts';

const now = new Date(2025, 2, 9, 12, 0, 0); // 9 March 2025, noon local time
const ago = (ms: number) => new Date(now.getTime() - ms);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A local time in March 2025, the month of `now`. */
const march = (day: number, hour: number, minute: number, second = 0) => new Date(2025, 2, day, hour, minute, second);

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1234567, '1.18 MB'],
    [1024 ** 2 - 1, '1024 KB'],
    [1024 ** 2, '1 MB'],
    [2.4 * 1024 ** 3, '2.4 GB'],
    [5 * 1024 ** 4, '5120 GB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('shows megabytes for the dashboard', () => {
    expect(formatMegabytes(0)).toBe('0');
    expect(formatMegabytes(1572864)).toBe('1.5');
    expect(formatMegabytes(1234567)).toBe('1.18');
  });
});

describe('formatNotificationTime', () => {
  it.each([
    [0, 'Just now'],
    [59 * SECOND, 'Just now'],
    [MINUTE, '1m ago'],
    [59 * MINUTE + 59 * SECOND, '59m ago'],
    [HOUR, '1h ago'],
    [23 * HOUR + 59 * MINUTE, '23h ago'],
    [DAY, '1d ago'],
    [10 * DAY, '10d ago'],
  ])('%d ms ago → %s', (ms, text) => {
    expect(formatNotificationTime(ago(ms), now)).toBe(text);
  });
});

describe('formatActivityTime', () => {
  it('reads like notifications for a week, then a short date', () => {
    expect(formatActivityTime(ago(30 * SECOND), now)).toBe('Just now');
    expect(formatActivityTime(ago(7 * DAY - MINUTE), now)).toBe('6d ago');
    expect(formatActivityTime(ago(7 * DAY), now)).toBe('Mar 2');
    expect(formatActivityTime(new Date(2024, 11, 25), now)).toBe('Dec 25, 2024');
  });
});

describe('formatAge', () => {
  it.each([
    [0, 'Just now'],
    [59 * SECOND, 'Just now'],
    [MINUTE, '1 minute ago'],
    [12 * MINUTE, '12 minutes ago'],
    [HOUR - SECOND, '59 minutes ago'],
    [HOUR, '1h ago'],
    [DAY - SECOND, '23h ago'],
    [DAY, '1 day ago'],
    [2 * DAY - SECOND, '1 day ago'],
    [2 * DAY, '2 days ago'],
    [30 * DAY, '30 days ago'],
  ])('%d ms ago → %s', (ms, text) => {
    expect(formatAge(ago(ms), now)).toBe(text);
  });
});

describe('formatTaskDue', () => {
  it.each([
    [march(6, 8, 0), 'Overdue by 3 days'],
    [march(8, 8, 59), 'Overdue by 1 day'],
    [march(8, 23, 59), 'Overdue by 12 hours'],
    [march(9, 0, 0), 'Overdue by 12 hours'],
    [march(9, 8, 0), 'Overdue by 4 hours'],
    [march(9, 11, 0), 'Overdue by 1 hour'],
    [march(9, 11, 58), 'Overdue by 2 minutes'],
    [march(9, 11, 59, 30), 'Overdue by 1 minute'],
    [march(9, 12, 1), 'Due today'],
    [march(9, 23, 59), 'Due today'],
    [march(10, 0, 0), 'Due tomorrow'],
    [march(10, 23, 59), 'Due tomorrow'],
    [march(11, 0, 0), 'Due in 2 days'],
    [new Date(2025, 3, 8, 9, 0), 'Due in 30 days'],
  ])('%s → %s', (due, text) => {
    expect(formatTaskDue(due, now)).toBe(text);
  });

  it('never says "Due today" once the due time has passed (the Overdue tab said it all morning)', () => {
    const thisMorning = march(9, 7, 30);
    expect(formatTaskDue(thisMorning, now)).toBe('Overdue by 4 hours');
  });

  it('accepts ISO strings', () => {
    expect(formatTaskDue(new Date(2025, 2, 12, 9).toISOString(), now)).toBe('Due in 3 days');
  });
});

describe('isOverdue', () => {
  it('is pending with a due date before now', () => {
    expect(isOverdue({ status: 'pending', dueDate: ago(SECOND).toISOString() }, now)).toBe(true);
    expect(isOverdue({ status: 'pending', dueDate: now.toISOString() }, now)).toBe(false);
    expect(isOverdue({ status: 'completed', dueDate: ago(DAY).toISOString() }, now)).toBe(false);
    expect(isOverdue({ status: 'pending', dueDate: null }, now)).toBe(false);
  });
});

describe('formatBadgeCount', () => {
  it.each([
    [0, '0'],
    [99, '99'],
    [100, '99+'],
  ])('%d → %s', (count, text) => {
    expect(formatBadgeCount(count)).toBe(text);
  });
});

describe('initials', () => {
  it('prefers first and last name, then the display name, then the e-mail', () => {
    expect(initials({ firstName: 'ana', lastName: 'Lopez' })).toBe('AL');
    expect(initials({ displayName: 'Ana Maria Lopez' })).toBe('AL');
    expect(initials({ email: 'crew@example.com' })).toBe('C');
  });
});

import { expect, it } from 'vitest';
import { formatDateTime } from '../lib/format.ts';
import { readableNotificationText } from './notificationText.ts';

it('shows the ISO times of notifications written before reminders said them in words in the reader’s own time', () => {
  const due = '2026-11-25T10:43:00.000Z';
  expect(readableNotificationText(`"Scout the barn" was due ${due}.`)).toBe(
    `"Scout the barn" was due ${formatDateTime(due)}.`,
  );
  expect(readableNotificationText(`"Scout the barn" was due ${due}.`)).not.toContain('T10:43');
});

it('leaves every other text as it is', () => {
  expect(readableNotificationText('"Call the diner" is due in 5 hours.')).toBe('"Call the diner" is due in 5 hours.');
  expect(readableNotificationText('Uploaded 2026-11-25 notes.txt')).toBe('Uploaded 2026-11-25 notes.txt');
});

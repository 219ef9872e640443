import { formatDateTime } from '../lib/format.ts';

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g;

/**
 * Due reminders stored before they said their time in words carry a raw UTC time; the browser
 * knows the reader's time zone, so it shows those in their own time.
 */
export function readableNotificationText(text: string): string {
  return text.replace(ISO_TIME, (time) => formatDateTime(time));
}

// The rules of the review-link form that the browser can check before asking the server.
import { dateInputProblem } from '../../../../api/src/shared/dates.ts';

/** The end of the chosen day where the owner is: a link "until Friday" works all of Friday. */
export function expiryOf(day: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const end = new Date(y, m - 1, d, 23, 59, 59, 999);
  // new Date rolls 2026-02-31 over to March: such a day does not exist.
  return end.getFullYear() === y && end.getMonth() === m - 1 && end.getDate() === d ? end : null;
}

/** "2026-11-27" for a date input's `min`, in local time. */
export function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export interface ReviewLinkForm {
  label: string;
  expiresOn: string;
  password: string;
  allowDownload: boolean;
}

export type ReviewLinkInput =
  | {
      ok: true;
      input: { label: string | null; expiresAt: string | null; password: string | null; allowDownload: boolean };
    }
  | { ok: false; field: 'label' | 'expiresOn' | 'password'; message: string };

export function reviewLinkInput(form: ReviewLinkForm, now: Date = new Date()): ReviewLinkInput {
  const label = form.label.trim();
  if (label.length > 200)
    return { ok: false, field: 'label', message: 'The label is too long (at most 200 characters).' };
  let expiresAt: string | null = null;
  if (form.expiresOn) {
    const outside = dateInputProblem(form.expiresOn, 'The expiry date');
    if (outside) return { ok: false, field: 'expiresOn', message: outside };
    const end = expiryOf(form.expiresOn);
    if (!end) return { ok: false, field: 'expiresOn', message: 'Please choose a valid date.' };
    if (end <= now) return { ok: false, field: 'expiresOn', message: 'The expiry must be today or later.' };
    expiresAt = end.toISOString();
  }
  const password = form.password;
  if (password && password.length < 4) {
    return { ok: false, field: 'password', message: 'The password must have at least 4 characters.' };
  }
  if (password.length > 200) {
    return { ok: false, field: 'password', message: 'The password is too long (at most 200 characters).' };
  }
  return {
    ok: true,
    input: { label: label || null, expiresAt, password: password || null, allowDownload: form.allowDownload },
  };
}

/** The server gives a path when it does not know its public address; the owner needs a whole URL to send. */
export function absoluteUrl(url: string, origin: string): string {
  return new URL(url, origin).href;
}

/** "Expires Dec 4, 2026", "Expired", "Revoked", "No expiry". */
export function linkStatus(
  link: { active: boolean; revokedAt?: string | null; expiresAt?: string | null },
  formatDate: (value: string) => string,
): { label: string; active: boolean } {
  if (link.revokedAt) return { label: 'Revoked', active: false };
  if (!link.active) return { label: 'Expired', active: false };
  return { label: link.expiresAt ? `Until ${formatDate(link.expiresAt)}` : 'No expiry', active: true };
}

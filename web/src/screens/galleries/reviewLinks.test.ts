import { describe, expect, it } from 'vitest';
import { absoluteUrl, dayOf, expiryOf, linkStatus, reviewLinkInput } from './reviewLinks.ts';

const form = { label: '', expiresOn: '', password: '', allowDownload: false };
const now = new Date(2026, 10, 27, 12, 0);

describe('reviewLinkInput', () => {
  it('sends empty fields as null', () => {
    expect(reviewLinkInput(form, now)).toEqual({
      ok: true,
      input: { label: null, expiresAt: null, password: null, allowDownload: false },
    });
  });

  it('trims the label and ends the link at the end of the chosen day', () => {
    const answer = reviewLinkInput(
      { ...form, label: '  Director ', expiresOn: '2026-12-04', allowDownload: true },
      now,
    );
    expect(answer.ok && answer.input.label).toBe('Director');
    expect(answer.ok && answer.input.expiresAt).toBe(new Date(2026, 11, 4, 23, 59, 59, 999).toISOString());
    expect(answer.ok && answer.input.allowDownload).toBe(true);
  });

  it('accepts today, refuses a past day and a day that does not exist', () => {
    expect(reviewLinkInput({ ...form, expiresOn: '2026-11-27' }, now).ok).toBe(true);
    expect(reviewLinkInput({ ...form, expiresOn: '2026-11-26' }, now)).toMatchObject({ ok: false, field: 'expiresOn' });
    expect(reviewLinkInput({ ...form, expiresOn: '2026-02-31' }, now)).toMatchObject({
      ok: false,
      message: 'Please choose a valid date.',
    });
  });

  it('takes a year from 1900 to 2100 only, as the API does', () => {
    for (const expiresOn of ['99999-01-01', '275760-09-13', '2101-01-01', '0001-01-01'])
      expect(reviewLinkInput({ ...form, expiresOn }, now), expiresOn).toEqual({
        ok: false,
        field: 'expiresOn',
        message: 'The expiry date must be between 1900 and 2100.',
      });
    expect(reviewLinkInput({ ...form, expiresOn: '2100-12-31' }, now).ok).toBe(true);
  });

  it('asks for at least 4 characters of password, and keeps spaces in it', () => {
    expect(reviewLinkInput({ ...form, password: 'abc' }, now)).toMatchObject({ ok: false, field: 'password' });
    const answer = reviewLinkInput({ ...form, password: ' ab c ' }, now);
    expect(answer.ok && answer.input.password).toBe(' ab c ');
  });

  it('refuses a label over 200 characters', () => {
    expect(reviewLinkInput({ ...form, label: 'x'.repeat(201) }, now)).toMatchObject({ ok: false, field: 'label' });
  });
});

describe('helpers', () => {
  it('expiryOf and dayOf agree', () => {
    expect(dayOf(expiryOf('2026-01-05') as Date)).toBe('2026-01-05');
    expect(expiryOf('tomorrow')).toBeNull();
  });

  it('absoluteUrl makes a path whole and keeps a whole URL', () => {
    expect(absoluteUrl('/r/abc', 'http://localhost:5173')).toBe('http://localhost:5173/r/abc');
    expect(absoluteUrl('https://scout.example/r/abc', 'http://localhost:5173')).toBe('https://scout.example/r/abc');
  });

  it('linkStatus names revoked, expired and open links', () => {
    const f = (v: string) => v.slice(0, 10);
    expect(linkStatus({ active: false, revokedAt: '2026-11-27T00:00:00Z' }, f)).toEqual({
      label: 'Revoked',
      active: false,
    });
    expect(linkStatus({ active: false, expiresAt: '2026-11-20T00:00:00Z' }, f).label).toBe('Expired');
    expect(linkStatus({ active: true, expiresAt: '2026-12-20T00:00:00Z' }, f).label).toBe('Until 2026-12-20');
    expect(linkStatus({ active: true }, f).label).toBe('No expiry');
  });
});

import { describe, expect, it } from 'vitest';
import { safeCallbackUrl, signInErrorMessage } from './signIn.ts';

describe('the way back after signing in', () => {
  it('keeps a path of this site, with its query', () => {
    expect(safeCallbackUrl('/galleries/7?tab=map')).toBe('/galleries/7?tab=map');
    expect(safeCallbackUrl(`${window.location.origin}/tasks`)).toBe('/tasks');
  });

  it('never leads to another site, nor back to the sign-in pages', () => {
    for (const elsewhere of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example/x',
      'javascript:alert(1)',
      '/signin?callbackUrl=%2F',
      '/signup',
      '',
      null,
    ]) {
      expect(safeCallbackUrl(elsewhere), String(elsewhere)).toBe('/');
    }
  });
});

describe('sign-in errors in words', () => {
  it('says what Auth.js’s codes mean, with the lock in seconds or minutes', () => {
    expect(signInErrorMessage(null, null)).toBeNull();
    expect(signInErrorMessage('CredentialsSignin', 'credentials')).toBe('Wrong email or password.');
    expect(signInErrorMessage('CredentialsSignin', 'too_many_attempts:30')).toBe(
      'Too many failed sign-in attempts. Try again in 30 seconds.',
    );
    expect(signInErrorMessage('CredentialsSignin', 'too_many_attempts:240')).toBe(
      'Too many failed sign-in attempts. Try again in 4 minutes.',
    );
    expect(signInErrorMessage('AccessDenied', null)).toBe('Failed to sign in with Google');
    expect(signInErrorMessage('Configuration', null)).toMatch(/^Sign-in is not available right now\./);
  });
});

import { describe, expect, it } from 'vitest';
import { asksForCode, safeCallbackUrl, signInErrorMessage } from './signIn.ts';

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
    expect(signInErrorMessage('AccessDenied', null, 'Google')).toBe('Failed to sign in with Google');
    expect(signInErrorMessage('OAuthCallbackError', null, 'Studio SSO')).toBe('Failed to sign in with Studio SSO');
    expect(signInErrorMessage('AccessDenied', null)).toBe('Failed to sign in. Please try again.');
    expect(signInErrorMessage('CredentialsSignin', 'account_disabled')).toBe(
      'This account is disabled. Ask an administrator.',
    );
    expect(signInErrorMessage('AccessDenied', 'account_disabled')).toBe(
      'This account is disabled. Ask an administrator.',
    );
    expect(signInErrorMessage('Configuration', null)).toMatch(/^Sign-in is not available right now\./);
  });
});

describe('the second step of a sign-in with two-factor on', () => {
  it('asks for the code only when the server says the password was right', () => {
    expect(asksForCode('two_factor_required')).toBe(true);
    expect(asksForCode('two_factor_invalid')).toBe(true);
    expect(asksForCode('credentials')).toBe(false);
    expect(asksForCode(null)).toBe(false);
    expect(signInErrorMessage('CredentialsSignin', 'two_factor_required')).toBe(
      'Enter the 6-digit code from your authenticator app.',
    );
    expect(signInErrorMessage('CredentialsSignin', 'two_factor_invalid')).toMatch(/^That code is not right\./);
  });
});

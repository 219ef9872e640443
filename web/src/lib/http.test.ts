import { describe, expect, it } from 'vitest';
import { errorFromResponse } from './http.ts';
import { isUnauthorizedError } from './unauthorized.ts';

describe('errorFromResponse', () => {
  it('uses the response text', async () => {
    const error = await errorFromResponse(new Response('Unauthorized', { status: 401 }));
    expect(error.message).toBe('401: Unauthorized');
  });

  it('falls back to the status text when the body is empty', async () => {
    const error = await errorFromResponse(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    expect(error.message).toBe('503: Service Unavailable');
  });
});

describe('isUnauthorizedError', () => {
  it.each([
    ['401: Unauthorized', true],
    ['401: {"message":"Unauthorized"}', true],
    ['403: Unauthorized', false],
    ['401: Forbidden', false],
    ['Unauthorized 401', false],
  ])('%s → %s', (message, expected) => {
    expect(isUnauthorizedError(new Error(message))).toBe(expected);
  });
});

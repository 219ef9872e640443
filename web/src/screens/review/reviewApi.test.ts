import { afterEach, describe, expect, it, vi } from 'vitest';
import { addReviewComment, loadReview, ReviewGoneError, reviewPath, setReviewPick, unlockReview } from './reviewApi.ts';

function answer(status: number, body?: unknown) {
  return vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(body === undefined ? null : JSON.stringify(body), { status }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('loadReview', () => {
  it('tells a page, a locked link, a gone link and a failure apart', async () => {
    const page = { gallery: { name: 'Lofts' }, photos: [], comments: [], picks: [] };
    vi.stubGlobal('fetch', answer(200, page));
    expect(await loadReview('tok')).toEqual({ status: 'ready', data: page });
    vi.stubGlobal('fetch', answer(401, { message: 'This link needs a password.' }));
    expect(await loadReview('tok')).toEqual({ status: 'locked', message: 'This link needs a password.' });
    vi.stubGlobal('fetch', answer(404, { message: 'Not found' }));
    expect(await loadReview('tok')).toEqual({ status: 'gone' });
    vi.stubGlobal('fetch', answer(429, { message: 'Too many requests. Try again in a minute.' }));
    expect(await loadReview('tok')).toEqual({ status: 'error', message: 'Too many requests. Try again in a minute.' });
    vi.stubGlobal('fetch', answer(500));
    expect(await loadReview('tok')).toEqual({ status: 'error', message: 'Something went wrong. Please try again.' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('offline');
      }),
    );
    expect((await loadReview('tok')).status).toBe('error');
  });
});

describe('writes', () => {
  it('send JSON to the link’s own paths', async () => {
    const fetch = answer(201, { id: 'c1' });
    vi.stubGlobal('fetch', fetch);
    await addReviewComment('a/b', { fileId: 'f1', name: 'Ana', body: 'Nice' });
    await setReviewPick('tok', 'f1', { name: 'Ana', pick: 'yes' });
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.method, init?.body])).toEqual([
      ['/api/review/a%2Fb/comments', 'POST', JSON.stringify({ fileId: 'f1', name: 'Ana', body: 'Nice' })],
      ['/api/review/tok/picks/f1', 'PUT', JSON.stringify({ name: 'Ana', pick: 'yes' })],
    ]);
  });

  it('say when the link went away, and give the server’s message otherwise', async () => {
    vi.stubGlobal('fetch', answer(404, { message: 'Not found' }));
    await expect(setReviewPick('tok', 'f1', { name: 'Ana', pick: 'no' })).rejects.toBeInstanceOf(ReviewGoneError);
    vi.stubGlobal('fetch', answer(400, { message: 'Please give your name.' }));
    await expect(addReviewComment('tok', { fileId: 'f1', name: '', body: 'x' })).rejects.toThrow(
      'Please give your name.',
    );
    vi.stubGlobal('fetch', answer(401, { message: 'That password is not right.' }));
    await expect(unlockReview('tok', 'nope')).rejects.toThrow('That password is not right.');
  });

  it('reviewPath keeps the token in one path segment', () => {
    expect(reviewPath('x?y', '/unlock')).toBe('/api/review/x%3Fy/unlock');
  });
});

import { describe, expect, it } from 'vitest';
import type { ReviewPick } from './reviewApi.ts';
import { commentCounts, nameKey, pickOf, reviewTokenOf, storedName, storeName, withPick } from './reviewState.ts';

const pick = (fileId: string, name: string, value: ReviewPick['pick']): ReviewPick => ({
  fileId,
  name,
  pick: value,
  updatedAt: '2026-11-27T10:00:00Z',
});

describe('reviewTokenOf', () => {
  it('reads the token of /r/{token} only', () => {
    expect(reviewTokenOf('/r/abc_DEF-123')).toBe('abc_DEF-123');
    expect(reviewTokenOf('/r/abc/')).toBe('abc');
    expect(reviewTokenOf('/r/')).toBeNull();
    expect(reviewTokenOf('/r/abc/more')).toBeNull();
    expect(reviewTokenOf('/galleries/r/abc')).toBeNull();
    expect(reviewTokenOf('/')).toBeNull();
  });

  it('keeps a token that is not valid percent-encoding as it is', () => {
    expect(reviewTokenOf('/r/%E0%A4%A')).toBe('%E0%A4%A');
  });
});

describe('picks', () => {
  it('replaces the same name’s pick on the same photo and keeps the others', () => {
    const before = [pick('a', 'Ana', 'yes'), pick('a', 'Bo', 'no'), pick('b', 'Ana', 'maybe')];
    const after = withPick(before, pick('a', 'Ana', 'no'));
    expect(after).toHaveLength(3);
    expect(pickOf(after, 'a', 'Ana')).toBe('no');
    expect(pickOf(after, 'a', 'Bo')).toBe('no');
    expect(pickOf(after, 'b', 'Ana')).toBe('maybe');
  });

  it('has no pick without a name', () => {
    expect(pickOf([pick('a', '', 'yes')], 'a', '')).toBeNull();
  });
});

describe('commentCounts', () => {
  it('counts comments per photo', () => {
    const c = (fileId: string) => ({ id: Math.random().toString(), fileId, name: 'x', body: 'y', createdAt: '' });
    const counts = commentCounts([c('a'), c('b'), c('a')]);
    expect(counts.get('a')).toBe(2);
    expect(counts.get('b')).toBe(1);
    expect(counts.get('c')).toBeUndefined();
  });
});

describe('the stored name', () => {
  it('is kept per link and trimmed', () => {
    const map = new Map<string, string>();
    const storage = { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => map.set(k, v) };
    storeName(storage, 't1', '  Ana  ');
    expect(storedName(storage, 't1')).toBe('Ana');
    expect(storedName(storage, 't2')).toBe('');
    expect(map.has(nameKey('t1'))).toBe(true);
  });

  it('is empty when storage refuses', () => {
    const storage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => storeName(storage, 't', 'Ana')).not.toThrow();
    expect(storedName(storage, 't')).toBe('');
    expect(storedName(undefined, 't')).toBe('');
  });
});

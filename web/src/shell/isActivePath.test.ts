import { describe, expect, it } from 'vitest';
import { isActivePath } from './navigation.ts';

describe('isActivePath', () => {
  it.each([
    ['/', '/', true],
    ['/', '/galleries', false],
    ['/galleries', '/galleries', true],
    ['/galleries', '/galleries/abc', true],
    ['/galleries', '/galleriesx', false],
    ['/files', '/files', true],
    ['/tasks', '/settings', false],
  ])('%s on %s → %s', (item, path, active) => {
    expect(isActivePath(item, path)).toBe(active);
  });
});

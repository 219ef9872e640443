import { describe, expect, it } from 'vitest';
import { globalIdOf, rawIdOf } from './globalId.ts';

describe('global ids', () => {
  it('round-trips and leaves raw ids alone', () => {
    const raw = '3f1c2a9e-1111-4222-8333-444455556666';
    expect(globalIdOf('Folder', raw)).toBe(btoa(`Folder:${raw}`));
    expect(rawIdOf(globalIdOf('Folder', raw))).toBe(raw);
    expect(rawIdOf(raw)).toBe(raw);
  });
});

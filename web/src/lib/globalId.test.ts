import { describe, expect, it } from 'vitest';
import { appPath, globalIdOf, rawIdOf, replacementForRawId } from './globalId.ts';

describe('global ids', () => {
  it('round-trips and leaves raw ids alone', () => {
    const raw = '3f1c2a9e-1111-4222-8333-444455556666';
    expect(globalIdOf('Folder', raw)).toBe(btoa(`Folder:${raw}`));
    expect(rawIdOf(globalIdOf('Folder', raw))).toBe(raw);
    expect(rawIdOf(raw)).toBe(raw);
  });
});

describe('ids in addresses', () => {
  const raw = '3f1c2a9e-1111-4222-8333-444455556666';
  it('builds screen addresses from the global id GraphQL gives', () => {
    const id = globalIdOf('Gallery', raw);
    expect(appPath.gallery(id)).toBe(`/galleries/${encodeURIComponent(id)}`);
    expect(appPath.folder(globalIdOf('Folder', raw))).toBe(
      `/files?folder=${encodeURIComponent(btoa(`Folder:${raw}`))}`,
    );
  });

  it('tells an old raw-uuid address apart, and what it should read instead', () => {
    expect(replacementForRawId('Folder', raw)).toBe(globalIdOf('Folder', raw));
    expect(replacementForRawId('Gallery', raw.toUpperCase())).toBe(globalIdOf('Gallery', raw.toUpperCase()));
    expect(replacementForRawId('Gallery', globalIdOf('Gallery', raw))).toBeNull();
    expect(replacementForRawId('Gallery', 'not-an-id')).toBeNull();
  });
});

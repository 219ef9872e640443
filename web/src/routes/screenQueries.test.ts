import { describe, expect, it } from 'vitest';
import { screenQuery } from './screenQueries.ts';

const at = (address: string) => new URL(address, 'https://scoutbase.test');
const FOLDER_UUID = '0b7c4f1e-2a55-4a57-9d1f-0c7d2a8b6e41';

function redirectOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

describe('screen query variables from the address', () => {
  it('reads the galleries search and order, with the default order for an unknown one', () => {
    expect(screenQuery('galleries', {}, at('/galleries?search=barn&sort=name')).variables).toEqual({
      search: 'barn',
      sort: 'name',
    });
    expect(screenQuery('galleries', {}, at('/galleries?sort=nonsense')).variables).toEqual({
      search: null,
      sort: 'recent',
    });
  });

  it('searches files on the server only past two characters', () => {
    expect(screenQuery('files', {}, at('/files?search=ab')).variables).toMatchObject({ search: '', searching: false });
    expect(screenQuery('files', {}, at('/files?search=abc&sort=size')).variables).toMatchObject({
      search: 'abc',
      searching: true,
      sort: 'SIZE',
      folderId: null,
      inFolder: false,
    });
  });

  it('sends an old raw-uuid link to the global id, keeping the rest of the address', () => {
    const folder = redirectOf(() => screenQuery('files', {}, at(`/files?folder=${FOLDER_UUID}&sort=name`)).variables);
    expect(folder).toBe(`/files?folder=${encodeURIComponent(btoa(`Folder:${FOLDER_UUID}`))}&sort=name`);
    const gallery = redirectOf(
      () => screenQuery('gallery', { id: FOLDER_UUID }, at(`/galleries/${FOLDER_UUID}`)).variables,
    );
    expect(gallery).toBe(`/galleries/${encodeURIComponent(btoa(`Gallery:${FOLDER_UUID}`))}`);
    const globalId = btoa(`Gallery:${FOLDER_UUID}`);
    expect(screenQuery('gallery', { id: globalId }, at(`/galleries/${globalId}`)).variables).toEqual({
      id: globalId,
      feedback: 'all',
      filtered: false,
    });
    expect(screenQuery('gallery', { id: globalId }, at(`/galleries/${globalId}?feedback=picked`)).variables).toEqual({
      id: globalId,
      feedback: 'picked',
      filtered: true,
    });
  });

  it('orders tasks by due date unless the address asks for the newest', () => {
    expect(screenQuery('tasks', {}, at('/tasks')).variables).toEqual({ sort: 'DUE_DATE' });
    expect(screenQuery('tasks', {}, at('/tasks?sort=newest')).variables).toEqual({ sort: 'NEWEST' });
  });
});

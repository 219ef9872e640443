import { describe, expect, it } from 'vitest';
import { activeCount, batchOutcome, type UploadItem, uploadsReducer } from './queue.ts';

const photo = new File(['x'], 'a.png', { type: 'image/png' });
const start = (): UploadItem[] => uploadsReducer([], { type: 'add', items: [{ id: '1', file: photo }] });

describe('upload items', () => {
  it('go pending → uploading with byte progress → analyzing at 90 → completed at 100', () => {
    let items = start();
    expect(items[0]).toMatchObject({ status: 'pending', progress: 0 });
    items = uploadsReducer(items, { type: 'start', id: '1' });
    expect(items[0]?.status).toBe('uploading');
    items = uploadsReducer(items, { type: 'progress', id: '1', loaded: 50, total: 100 });
    expect(items[0]?.progress).toBe(43);
    items = uploadsReducer(items, { type: 'progress', id: '1', loaded: 10, total: 100 });
    expect(items[0]?.progress, 'never moves backwards').toBe(43);
    items = uploadsReducer(items, { type: 'stored', id: '1', fileId: 'f', url: '/objects/uploads/u', analyze: true });
    expect(items[0]).toMatchObject({ status: 'analyzing', progress: 90, fileId: 'f' });
    items = uploadsReducer(items, { type: 'analyzed', id: '1', analysis: { tags: ['door'] } });
    expect(items[0]).toMatchObject({ status: 'completed', progress: 100, analysis: { tags: ['door'] } });
  });

  it('complete at once when nothing is analysed', () => {
    const items = uploadsReducer(start(), { type: 'stored', id: '1', fileId: 'f', url: '/x', analyze: false });
    expect(items[0]).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('fail with a message, defaulting to Upload failed, and can be dismissed', () => {
    let items = uploadsReducer(start(), { type: 'failed', id: '1', error: 'Failed to get upload URL' });
    expect(items[0]).toMatchObject({ status: 'error', error: 'Failed to get upload URL' });
    items = uploadsReducer(start(), { type: 'failed', id: '1' });
    expect(items[0]?.error).toBe('Upload failed');
    expect(activeCount(items)).toBe(0);
    expect(uploadsReducer(items, { type: 'dismiss', id: '1' })).toEqual([]);
  });

  it('a completed item stays completed', () => {
    let items = uploadsReducer(start(), { type: 'stored', id: '1', fileId: 'f', url: '/x', analyze: false });
    items = uploadsReducer(items, { type: 'failed', id: '1', error: 'late' });
    expect(items[0]?.status).toBe('completed');
  });

  it('counts a batch', () => {
    expect(batchOutcome([true, false, true])).toEqual({ succeeded: 2, failed: 1 });
  });
});

describe('upload items with a name already taken', () => {
  it('keep the answer, finish as skipped without progress when skipped, and say the name keep-both gave', () => {
    let items = uploadsReducer([], {
      type: 'add',
      items: [
        { id: 's', file: photo, choice: 'skip' },
        { id: 'k', file: photo, choice: 'keepBoth' },
      ],
    });
    expect(items.map((i) => i.choice)).toEqual(['skip', 'keepBoth']);
    items = uploadsReducer(items, { type: 'skipped', id: 's' });
    expect(items[0]).toMatchObject({ status: 'skipped', progress: 0 });
    expect(activeCount(items), 'a skipped file no longer counts towards the limit').toBe(1);
    items = uploadsReducer(items, {
      type: 'stored',
      id: 'k',
      fileId: 'f',
      url: '/x',
      analyze: false,
      storedAs: 'a (1).png',
    });
    expect(items[1]).toMatchObject({ status: 'completed', storedAs: 'a (1).png' });
    // The same name back (a free name) is not a rename.
    const plain = uploadsReducer(start(), {
      type: 'stored',
      id: '1',
      fileId: 'f',
      url: '/x',
      analyze: false,
      storedAs: 'a.png',
    });
    expect(plain[0]?.storedAs).toBeUndefined();
    expect(uploadsReducer(items, { type: 'clearFinished' })).toEqual([]);
  });
});

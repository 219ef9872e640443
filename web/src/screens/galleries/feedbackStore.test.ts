import { commitLocalUpdate, Environment, Network, RecordSource, Store } from 'relay-runtime';
import { describe, expect, it } from 'vitest';
import { appendLinkedOnce, feedbackAuthor } from './feedbackStore.ts';

function environment() {
  const env = new Environment({
    network: Network.create(() => Promise.reject(new Error('offline'))),
    store: new Store(new RecordSource()),
  });
  commitLocalUpdate(env, (store) => {
    const item = store.create('item', 'GalleryItem');
    const first = store.create('c1', 'PhotoComment');
    item.setLinkedRecords([first], 'comments');
    store.create('bare', 'GalleryItem');
    store.create('c2', 'PhotoComment');
  });
  return env;
}

function idsOf(env: Environment, parent: string, field: string) {
  const ids: (string | null)[] = [];
  commitLocalUpdate(env, (store) => {
    const list = store.get(parent)?.getLinkedRecords(field);
    if (list) for (const r of list) ids.push(r?.getDataID() ?? null);
  });
  return ids;
}

describe('appendLinkedOnce', () => {
  it('appends a new record once, however often it arrives', () => {
    const env = environment();
    for (let i = 0; i < 2; i++) {
      commitLocalUpdate(env, (store) => appendLinkedOnce(store.get('item'), 'comments', store.get('c2')));
    }
    expect(idsOf(env, 'item', 'comments')).toEqual(['c1', 'c2']);
  });

  it('leaves a list nobody has read yet, and missing records, alone', () => {
    const env = environment();
    commitLocalUpdate(env, (store) => {
      appendLinkedOnce(store.get('bare'), 'comments', store.get('c2'));
      appendLinkedOnce(store.get('missing'), 'comments', store.get('c2'));
      appendLinkedOnce(store.get('item'), 'comments', store.get('missing'));
    });
    expect(idsOf(env, 'bare', 'comments')).toEqual([]);
    expect(idsOf(env, 'item', 'comments')).toEqual(['c1']);
  });
});

describe('feedbackAuthor', () => {
  it('names members by their name and reviewers by the name they gave', () => {
    expect(feedbackAuthor({ author: { displayName: 'Ana Ruiz' }, reviewerName: null })).toBe('Ana Ruiz');
    expect(feedbackAuthor({ author: null, reviewerName: 'Dir. Bo' })).toBe('Dir. Bo (reviewer)');
    // A member who deleted their account: the comment stays, unsigned by either.
    expect(feedbackAuthor({ author: null, reviewerName: null })).toBe('Deleted user');
  });
});

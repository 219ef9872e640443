import { encodeGlobalID } from '@pothos/plugin-relay';
import { describe, expect, it } from 'vitest';
import { send, type SignedInUser, type TestApp } from '../../test/harness.ts';
import { listeningOverSse } from '../../test/sse.ts';
import { makeFile } from '../galleries/testing.ts';
import { withFourPeople, galleryWithPhoto, makeReviewLink, withCrew } from '../reviews/testing.ts';

// Issue 53, item 6: the events behind screens that stay live (the browser side is web/e2e/live-screens.e2e.ts).

let app: TestApp, owner: SignedInUser, editor: SignedInUser, reader: SignedInUser, outsider: SignedInUser;
withFourPeople((people) => {
  ({ app, owner, editor, reader, outsider } = people);
});

/** Reads a plain server-sent event stream (not GraphQL): each block's `event:` name, in order. */
function namedEvents(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<string | null> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: ?(.*)$/m.exec(block)?.[1];
          if (name) return name;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}

const within = <T>(promise: Promise<T>, ms = 5_000) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms))]);

describe('a review page’s own channel', () => {
  it('tells the open page at once when its link is revoked, and nothing of other links', async () => {
    const { gallery } = await galleryWithPhoto(app, owner);
    const first = await makeReviewLink(app, owner.cookie, gallery.id, { label: 'Director' });
    const second = await makeReviewLink(app, owner.cookie, gallery.id, { label: 'Producer' });
    const open = (token: string) => app.request(`/api/review/${token}/events`);

    const firstResponse = await open(first.token);
    expect(firstResponse.status).toBe(200);
    expect(firstResponse.headers.get('content-type')).toContain('text/event-stream');
    const firstEvents = namedEvents(firstResponse);
    const secondEvents = namedEvents(await open(second.token));
    expect(await within(firstEvents.next())).toBe('open');
    expect(await within(secondEvents.next())).toBe('open');

    expect((await send(app, owner.cookie, 'DELETE', `/api/review-links/${first.id}`)).status).toBe(200);
    expect(await within(firstEvents.next())).toBe('ended');
    expect(await within(firstEvents.next())).toBeNull();

    // The other link's page heard nothing: its stream is still open and quiet.
    const quiet = await Promise.race([secondEvents.next(), new Promise((r) => setTimeout(() => r('quiet'), 300))]);
    expect(quiet).toBe('quiet');
    await secondEvents.close();

    // The revoked link's channel, the page and its photos are gone.
    expect((await open(first.token)).status).toBe(404);
    expect((await send(app, undefined, 'GET', `/api/review/${first.token}`)).status).toBe(404);
  });
});

type Event<K extends string> = { data?: Record<K, { taskId?: string; galleryId?: string }>; errors?: unknown[] };

describe('task lists', () => {
  it('hear a task assigned to them, and only their own tasks', async () => {
    await withCrew(app, owner, { editor, reader }, (await galleryWithPhoto(app, owner)).gallery.id);
    const query = 'subscription { tasksChanged { taskId } }';
    const assignee = await listeningOverSse<Event<'tasksChanged'>>(app, editor.cookie, query);
    const stranger = await listeningOverSse<Event<'tasksChanged'>>(app, outsider.cookie, query);
    try {
      const task = await send(app, owner.cookie, 'POST', '/api/tasks', { title: 'Scout the crane' });
      expect(task.status).toBe(201);
      const assigned = await send(app, owner.cookie, 'PATCH', `/api/tasks/${task.body.id}`, { assigneeId: editor.id });
      expect(assigned.status).toBe(200);
      const [heard] = await within(assignee.until((r) => r.length >= 1));
      expect(heard?.data?.tasksChanged.taskId).toBe(encodeGlobalID('Task', task.body.id));
      const quiet = await Promise.race([
        stranger.until((r) => r.length >= 1),
        new Promise((r) => setTimeout(() => r('quiet'), 300)),
      ]);
      expect(quiet).toBe('quiet');
    } finally {
      await assignee.close();
      await stranger.close();
    }
  });
});

describe('galleries', () => {
  it('tell everyone who can see a gallery that a member added a photo; nobody else', async () => {
    const { gallery } = await galleryWithPhoto(app, owner);
    await withCrew(app, owner, { editor, reader }, gallery.id);
    const one = 'subscription($id: ID) { galleryItemsChanged(galleryId: $id) { galleryId } }';
    const open = await listeningOverSse<Event<'galleryItemsChanged'>>(app, owner.cookie, one, {
      id: encodeGlobalID('Gallery', gallery.id),
    });
    const list = await listeningOverSse<Event<'galleryItemsChanged'>>(app, reader.cookie, one, {});
    const stranger = await listeningOverSse<Event<'galleryItemsChanged'>>(app, outsider.cookie, one, {});
    try {
      const file = await makeFile(app, editor.id, 'crane.jpg');
      const added = await send(app, editor.cookie, 'POST', `/api/galleries/${gallery.id}/items`, {
        fileIds: [file.id],
      });
      expect(added.status).toBe(201);
      const id = encodeGlobalID('Gallery', gallery.id);
      expect((await within(open.until((r) => r.length >= 1)))[0]?.data?.galleryItemsChanged.galleryId).toBe(id);
      expect((await within(list.until((r) => r.length >= 1)))[0]?.data?.galleryItemsChanged.galleryId).toBe(id);
      const quiet = await Promise.race([
        stranger.until((r) => r.length >= 1),
        new Promise((r) => setTimeout(() => r('quiet'), 300)),
      ]);
      expect(quiet).toBe('quiet');
    } finally {
      await Promise.all([open.close(), list.close(), stranger.close()]);
    }
    // A gallery one cannot see cannot be listened to.
    const refused = await app.request('/graphql', {
      method: 'POST',
      cookie: outsider.cookie,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: one, variables: { id: encodeGlobalID('Gallery', gallery.id) } }),
    });
    expect(await refused.text()).toMatch(/not found|Gallery/i);
  });
});

import { describe, expect, it } from 'vitest';
import { createEvents } from './pubsub.ts';

const change = (projectId: string) => ({
  kind: 'membership' as const,
  projectId,
  galleryId: null,
  galleriesChanged: false,
});

describe('the in-process pub/sub', () => {
  it('keeps what is published from the moment of subscribe(), before the first next()', async () => {
    const events = createEvents();
    const heard = events.subscribe('access:changed', 'u1');
    events.publish('access:changed', 'u1', change('p1'));
    events.publish('access:changed', 'u1', change('p2'));
    expect((await heard.next()).value).toEqual(change('p1'));
    expect((await heard.next()).value).toEqual(change('p2'));
    await heard.return?.();
  });

  it("hands every subscriber of a topic the same event object, and nobody else's", async () => {
    const events = createEvents();
    const tabs = [1, 2, 3].map(() => events.subscribe('notification:added', 'u1'));
    const stranger = events.subscribe('notification:added', 'u2');
    const payload = { notificationId: 'n1' };
    events.publish('notification:added', 'u1', payload);
    for (const tab of tabs) expect((await tab.next()).value).toBe(payload);
    const strangerNext = stranger.next();
    events.publish('notification:added', 'u2', { notificationId: 'n2' });
    expect((await strangerNext).value).toEqual({ notificationId: 'n2' });
    await Promise.all([...tabs, stranger].map((events) => events.return?.()));
  });

  it('ends a waiting next() on return, and hears nothing afterwards', async () => {
    const events = createEvents();
    const heard = events.subscribe('upload:processed', 'u1');
    const waiting = heard.next();
    await heard.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
    events.publish('upload:processed', 'u1', { uploadId: 'x' });
    expect(await heard.next()).toEqual({ done: true, value: undefined });
  });
});

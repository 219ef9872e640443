import { describe, expect, it } from 'vitest';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Services } from '../context.ts';
import { createEventBus, type GalleryCreated } from './events.ts';

// The bus alone; what each subscriber writes is held by its domain's tests (sharing, tasks, activity).
// Each test has a bus of its own: the app's carries the real subscribers, in a process test files share.
const tx = {} as Prisma.TransactionClient;
const services = {} as Services;
const event = (galleryName: string): GalleryCreated => ({
  type: 'gallery.created',
  actorId: 'a',
  galleryId: 'g',
  galleryName,
});

describe('domain events', () => {
  it('runs every subscriber in the transaction, in order, and what they leave only when the caller says it committed', async () => {
    const { subscribe, record } = createEventBus();
    const seen: unknown[] = [];
    subscribe('gallery.created', 'first', async (given, e) => {
      seen.push(given, `first ${e.galleryName}`);
      return () => {
        seen.push('first after commit');
      };
    });
    subscribe('gallery.created', 'second', async () => {
      seen.push('second');
      return undefined;
    });
    const afterCommit = await record(tx, services, event('Harbour'));
    expect(seen).toEqual([tx, 'first Harbour', 'second']);
    await afterCommit();
    expect(seen).toEqual([tx, 'first Harbour', 'second', 'first after commit']);
  });

  it('keeps one subscriber per name however often it is added (a second app in one process)', async () => {
    const { subscribe, record } = createEventBus();
    let calls = 0;
    for (let i = 0; i < 3; i++) {
      subscribe('gallery.created', 'once', async () => {
        calls++;
        return undefined;
      });
    }
    await record(tx, services, event('Quarry'));
    expect(calls).toBe(1);
  });

  it('lets a failing subscriber fail the change: its error reaches the caller inside the transaction', async () => {
    const { subscribe, record } = createEventBus();
    subscribe('gallery.created', 'failing', async () => {
      throw new Error('no room for this row');
    });
    await expect(record(tx, services, event('Refused'))).rejects.toThrow('no room for this row');
  });
});

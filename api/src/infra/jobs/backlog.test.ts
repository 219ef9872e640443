import { PGlite } from '@electric-sql/pglite';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../db/database.ts';
import { createJobQueue } from './queue.ts';

// A backlog drains at the speed of its handlers, not of the polling interval: after each job a
// worker looks for the next at once (a burst of photos' thumbnails is the case that matters).

const client = await PGlite.create();
const database = await openDatabase({ kind: 'pglite', client }, { migrate: false });
const jobs = await createJobQueue({ ...database, close: async () => {} }, { pollingIntervalSeconds: 1 });
afterAll(async () => {
  await jobs.close();
  await client.close();
});

it('runs twenty queued 20 ms jobs on one worker in well under the twenty seconds of one poll each', async () => {
  const done: number[] = [];
  let finished: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    finished = resolve;
  });
  await jobs.work<{ n: number }>('test.backlog', async ({ n }) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    done.push(n);
    if (done.length === 20) finished();
  });
  const started = Date.now();
  for (let n = 0; n < 20; n++) await jobs.send('test.backlog', { n });
  await all;
  expect(Date.now() - started).toBeLessThan(6_000);
  expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
}, 60_000);

import type { Logger } from 'pino';
import type { JobQueue } from './queue.ts';

/**
 * Runs `pass` about once every `everySeconds` across all instances together: each instance offers
 * a job for the current time slot, and the queue keeps one job per slot (a singleton per slot),
 * so however many instances run, one of them runs each pass. A pass interrupted by a crash runs
 * again like any job; a failed one is retried once and then listed by `pnpm jobs`.
 * Slots are whole seconds (a shorter interval, for tests, becomes one second).
 * Returns the function that stops offering (the queue's close stops the workers).
 */
export async function runEvery(
  jobs: JobQueue,
  name: string,
  everySeconds: number,
  pass: () => Promise<unknown>,
  options: { logger?: Pick<Logger, 'warn'>; timeoutSeconds?: number } = {},
): Promise<() => void> {
  if (!(everySeconds > 0)) return () => {};
  const slotSeconds = Math.max(1, Math.round(everySeconds));
  await jobs.work(name, async () => {
    await pass();
  });
  const offer = () => {
    jobs
      .send(
        name,
        {},
        {
          singletonKey: name,
          singletonSeconds: slotSeconds,
          retryLimit: 1,
          retryDelaySeconds: Math.min(60, slotSeconds),
          timeoutSeconds: options.timeoutSeconds ?? Math.max(60, slotSeconds),
        },
      )
      .catch((err) => options.logger?.warn({ err, queue: name }, 'could not offer a scheduled job'));
  };
  // Twice a slot, so a slot is not missed when the timer drifts; the queue keeps one job per slot.
  const timer = setInterval(offer, Math.max(500, (slotSeconds * 1000) / 2));
  timer.unref();
  return () => clearInterval(timer);
}

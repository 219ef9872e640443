import { afterAll, describe, expect, it } from 'vitest';
import { fakeSmtpServer } from '../fake-smtp.ts';
import { person, postgresReachable } from '../harness.ts';
import { freshProductionSettings, signUpOver, startServer } from '../server-process.ts';
import { VERIFY_SUBJECT } from '../../src/auth/mails.ts';

// The server process is killed (SIGKILL) while it hands an e-mail to the mail server; a new process
// on the same database sends it: the mail arrives, once. On the embedded database and on PostgreSQL.
const reachable = await postgresReachable();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function environment(kind: 'embedded' | 'postgres', smtpUrl: string) {
  const { env } = await freshProductionSettings('mail-killed', cleanups, { postgres: kind === 'postgres' });
  return {
    ...env,
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'scout@example.test',
    // The due reminder is the e-mail under test: a task due within a day gets one.
    DUE_REMINDER_INTERVAL_SECONDS: '1',
    ...(kind === 'postgres' && { MIGRATE_ON_START: 'true' }),
  };
}

describe.each([
  ['the embedded database', 'embedded' as const],
  ['PostgreSQL', 'postgres' as const],
])('on %s', (_, kind) => {
  it.skipIf(kind === 'postgres' && !reachable)(
    'an e-mail being delivered when the server is killed is sent after restart, once',
    async () => {
      const smtp = await fakeSmtpServer();
      cleanups.push(() => smtp.close());
      const env = await environment(kind, smtp.url);
      const first = await startServer(env);
      // (kill() waits for an exit that a killed process has already made)
      cleanups.push(async () => {
        if (first.child.exitCode === null && first.child.signalCode === null) await first.kill();
      });
      const ana = person();
      const { cookie } = await signUpOver(first.origin, ana);
      const reminders = () => smtp.received.filter((r) => r.mail.subject === 'Task due soon');
      // Sign-up's verification e-mail goes first, so the message held below is the reminder.
      await smtp.until(() => smtp.received.some((r) => r.mail.subject === VERIFY_SUBJECT));

      // The mail server takes the reminder's bytes and does not answer: the server is mid-delivery.
      smtp.stall(1);
      const created = await fetch(`${first.origin}/api/tasks`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: first.origin },
        body: JSON.stringify({ title: 'Recce the quarry', dueDate: new Date(Date.now() + 3600_000).toISOString() }),
      });
      expect(created.status).toBe(201);
      await smtp.until(() => smtp.stalled.length === 1);
      expect(smtp.stalled[0]?.subject).toBe('Task due soon');
      await first.kill();
      expect(reminders()).toHaveLength(0);

      const killedAt = Date.now();
      const second = await startServer(env);
      cleanups.push(async () => {
        if (second.child.exitCode === null && second.child.signalCode === null) await second.kill();
      });
      const startedIn = Date.now() - killedAt;
      await smtp.until(() => reminders().length >= 1, 90_000);
      // Sent at once after the restart, not after the job's timeout (minutes).
      expect(Date.now() - killedAt - startedIn).toBeLessThan(20_000);
      // Retries, a second reminder pass, the released job: nothing sends it again.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const mine = smtp.received.filter(
        (r) => r.to.includes(ana.email.toLowerCase()) && r.mail.subject !== VERIFY_SUBJECT,
      );
      expect(mine.map((r) => r.mail.subject)).toEqual(['Task due soon']);
      expect(mine[0]?.mail.text).toContain('"Recce the quarry" is due in 1 hour.');
      // The same message as the interrupted attempt (one Message-ID), should a copy ever reach a mailbox.
      expect(mine[0]?.mail.messageId).toBe(smtp.stalled[0]?.messageId);
      await second.stop();
    },
    240_000,
  );
});

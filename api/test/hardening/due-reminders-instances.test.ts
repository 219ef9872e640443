import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fakeSmtpServer } from '../fake-smtp.ts';
import { person, postgresReachable, scratchPostgresDatabase } from '../harness.ts';
import { productionSettings, signUpOver, startServer } from '../server-process.ts';

// Two server processes on one PostgreSQL database, both running the due-reminder pass every second:
// each task's reminder is written once and e-mailed once, whichever instance runs the pass.
const reachable = await postgresReachable();
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

it.skipIf(!reachable)(
  'two instances send each due reminder once',
  async () => {
    const smtp = await fakeSmtpServer();
    cleanups.push(() => smtp.close());
    const database = await scratchPostgresDatabase('scoutbase_reminders');
    cleanups.push(() => database.drop());
    const secret = randomBytes(32).toString('hex');
    const servers = [];
    for (let i = 0; i < 2; i++) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-reminders-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const server = await startServer({
        ...(await productionSettings(dataDir, secret)),
        DATABASE_URL: database.url,
        // The first migrates; the second starts on the migrated database, as a rolling deploy does.
        MIGRATE_ON_START: i === 0 ? 'true' : 'false',
        SMTP_URL: smtp.url,
        MAIL_FROM: 'scout@example.test',
        DUE_REMINDER_INTERVAL_SECONDS: '1',
      });
      cleanups.push(() => server.stop());
      servers.push(server);
    }

    // Six people, each with a task due within the hour, made on either instance.
    const people = [];
    for (let i = 0; i < 6; i++) {
      const server = servers[i % 2] as (typeof servers)[number];
      const who = person();
      const { cookie } = await signUpOver(server.origin, who);
      const created = await fetch(`${server.origin}/api/tasks`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: server.origin },
        body: JSON.stringify({ title: `Permit ${i}`, dueDate: new Date(Date.now() + 30 * 60_000).toISOString() }),
      });
      expect(created.status).toBe(201);
      people.push({ ...who, cookie, server });
    }

    // Each sign-up also sent its verification e-mail: the reminders are the messages under test.
    const reminders = () => smtp.received.filter((r) => r.mail.subject === 'Task due soon');
    await smtp.until(() => reminders().length >= people.length, 60_000);
    // Several more passes on both instances: none repeats a reminder.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    for (const [i, who] of people.entries()) {
      const mails = reminders().filter((r) => r.to.includes(who.email.toLowerCase()));
      expect(mails.map((m) => m.mail.text?.match(/"Permit \d"/)?.[0])).toEqual([`"Permit ${i}"`]);
      // Each instance shows the one notification.
      for (const server of servers) {
        const list = (await (
          await fetch(`${server.origin}/api/notifications`, { headers: { cookie: who.cookie } })
        ).json()) as {
          title: string;
        }[];
        expect(list.filter((n) => n.title === 'Task due soon')).toHaveLength(1);
      }
    }
    expect(reminders()).toHaveLength(people.length);
  },
  240_000,
);

import { readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser as User, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { crewProject } from '../../test/fixtures.ts';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../infra/db/database.ts';
import { createJobQueue } from '../infra/jobs/queue.ts';
import { createMailer, type MailTransport, outboxTransport } from '../infra/mail/mailer.ts';
import { notificationEmail } from './email.ts';
import { VERIFY_SUBJECT } from '../auth/mails.ts';
import { appLink } from '../shared/links.ts';

interface Received {
  from: string;
  to: string[];
  mail: ParsedMail;
}

/** A real SMTP server on a free local port that keeps what it receives. */
async function localSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: nothing to encrypt or sign in to.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          callback();
        },
        (err) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Leaves out the verification link every sign-up sends (auth/verification.ts): these tests are about notifications. */
const notices = (received: Received[]) => received.filter((r) => r.mail.subject !== VERIFY_SUBJECT);

async function call(app: TestApp, user: User, method: string, pathname: string, body?: unknown) {
  const response = await app.request(pathname, {
    method,
    cookie: user.cookie,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Alice assigns Bob a task: a real "task assigned" notification for Bob. */
async function assignTask(app: TestApp, alice: User, bob: User, title: string) {
  const created = await call(app, alice, 'POST', '/api/tasks', { title, assigneeId: bob.id });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function teamOf(app: TestApp) {
  const [alice, bob] = [await signedInUser(app), await signedInUser(app)];
  await crewProject(app, 'Night Shoot', alice, bob);
  return { alice, bob };
}

describe('notification e-mails through SMTP', () => {
  let smtp: Awaited<ReturnType<typeof localSmtpServer>>;
  let app: TestApp;

  beforeAll(async () => {
    smtp = await localSmtpServer();
    app = await testApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Scoutbase <scout@example.test>',
      PUBLIC_URL: 'https://scout.example.test',
    });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  it('e-mails the assignee with a subject, a text and an HTML body linking to the task', async () => {
    expect(app.services.mailer?.kind).toBe('smtp');
    const { alice, bob } = await teamOf(app);
    const taskId = await assignTask(app, alice, bob, 'Scout the harbour');
    await app.services.mailer?.idle();

    const mine = notices(smtp.received).filter((r) => r.to.includes(bob.email.toLowerCase()));
    expect(mine).toHaveLength(1);
    const [{ from, to, mail }] = mine as [Received];
    expect(from).toBe('scout@example.test');
    expect(to).toEqual([bob.email.toLowerCase()]);
    expect(mail.subject).toBe('New task assigned');
    // The web app's addresses carry global ids (shared/links.ts).
    const link = `https://scout.example.test${appLink.task(taskId)}`;
    expect(mail.text).toContain('assigned you "Scout the harbour".');
    expect(mail.text).toContain(`Open in Scoutbase: ${link}`);
    expect(mail.html).toContain(`<a href="${link.replace('&', '&amp;')}">Open in Scoutbase</a>`);
    expect(mail.html).toContain('assigned you &quot;Scout the harbour&quot;.');
    // Alice did nothing that concerns her: no mail for her.
    expect(notices(smtp.received).some((r) => r.to.includes(alice.email.toLowerCase()))).toBe(false);
  });

  it('stops e-mailing once Email Notifications is switched off, and starts again when on', async () => {
    const { alice, bob } = await teamOf(app);
    expect((await call(app, bob, 'PATCH', '/api/user/settings', { emailNotifications: false })).status).toBe(200);
    await assignTask(app, alice, bob, 'Quiet task');
    await app.services.mailer?.idle();
    // The notification itself is still written; only the e-mail is skipped.
    expect(await app.database.prisma.notification.count({ where: { userId: bob.id } })).toBe(1);
    expect(notices(smtp.received).filter((r) => r.to.includes(bob.email.toLowerCase()))).toHaveLength(0);

    expect((await call(app, bob, 'PATCH', '/api/user/settings', { emailNotifications: true })).status).toBe(200);
    await assignTask(app, alice, bob, 'Loud task');
    await app.services.mailer?.idle();
    const mine = notices(smtp.received).filter((r) => r.to.includes(bob.email.toLowerCase()));
    expect(mine.map((r) => r.mail.text)).toEqual([expect.stringContaining('"Loud task"')]);
  });

  it('a notification that is updated (more uploads finishing) is e-mailed once', async () => {
    const { alice, bob } = await teamOf(app);
    await assignTask(app, alice, bob, 'Once');
    const notice = await app.database.prisma.notification.findFirstOrThrow({ where: { userId: bob.id } });
    const { publishNotifications } = await import('./rules.ts');
    publishNotifications(app.services, [notice]);
    await app.services.mailer?.idle();
    expect(notices(smtp.received).filter((r) => r.to.includes(bob.email.toLowerCase()))).toHaveLength(1);
  });
});

describe('notification e-mails without SMTP', () => {
  it('writes each one as a parseable .eml file into DATA_DIR/outbox', async () => {
    const app = await testApp();
    try {
      expect(app.services.mailer?.kind).toBe('outbox');
      expect(app.config.mail.outboxDir).toBe(path.join(app.dataDir, 'outbox'));
      const { alice, bob } = await teamOf(app);
      const taskId = await assignTask(app, alice, bob, 'Check the permits');
      await app.services.mailer?.idle();

      const files = await readdir(app.config.mail.outboxDir);
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
      const parsed = await Promise.all(
        files.map(async (f) => simpleParser(await readFile(path.join(app.config.mail.outboxDir, f)))),
      );
      const [mail, ...more] = parsed.filter((m) => m.subject !== VERIFY_SUBJECT);
      expect(more).toEqual([]);
      if (!mail) throw new Error('no notification e-mail in the outbox');
      expect(mail.subject).toBe('New task assigned');
      const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
      expect(to?.value[0]?.address).toBe(bob.email);
      expect(mail.from?.value[0]?.address).toBe('scoutbase@localhost');
      expect(mail.text).toContain(appLink.task(taskId));
      expect(mail.html).toContain('Open in Scoutbase');
    } finally {
      await app.close();
    }
  });
});

describe('the notification e-mail', () => {
  const user = { email: 'ana@example.test', firstName: 'Ana', displayName: null };

  it('links into the app under PUBLIC_URL, path included, and escapes what people typed', () => {
    const mail = notificationEmail(
      {
        title: 'Gallery shared with your project',
        message: 'Tom shared "<b>Dock</b> & co".',
        link: '/galleries/1',
        user,
      },
      'https://example.test/scout',
    );
    expect(mail).toMatchObject({ to: 'ana@example.test', subject: 'Gallery shared with your project' });
    expect(mail.text).toContain('Hi Ana,');
    expect(mail.text).toContain('Open in Scoutbase: https://example.test/scout/galleries/1');
    expect(mail.html).toContain('Tom shared &quot;&lt;b&gt;Dock&lt;/b&gt; &amp; co&quot;.');
    expect(mail.html).toContain('href="https://example.test/scout/settings"');
  });

  it('sends a notification without an in-app link to the dashboard, never to another host', () => {
    for (const link of [null, '//elsewhere.test/x', 'https://elsewhere.test/']) {
      const mail = notificationEmail({ title: 'Hello', message: 'Hi', link, user }, 'https://example.test');
      expect(mail.text).toContain('Open in Scoutbase: https://example.test/\n');
    }
  });
});

describe('the mailer', () => {
  const message = { to: 'a@example.test', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };

  it('retries a failed send as a job, then lists it as failed and carries on', async () => {
    const attempts: string[] = [];
    const flaky = (failures: number): MailTransport => ({
      kind: 'smtp',
      async send(m) {
        attempts.push(m.subject);
        if (attempts.length <= failures) throw new Error('421 try again later');
      },
      close() {},
    });
    const client = await PGlite.create();
    const database = await openDatabase({ kind: 'pglite', client }, { migrate: false });
    const jobs = await createJobQueue(database, { pollingIntervalSeconds: 0.5 });
    try {
      const recovering = await createMailer(flaky(2), jobs, { retryLimit: 2, retryDelaySeconds: 0 });
      recovering.deliver(message);
      await recovering.idle();
      expect(attempts).toHaveLength(3);
      expect(await jobs.failures()).toHaveLength(0);
    } finally {
      await jobs.close();
    }

    attempts.length = 0;
    const again = await createJobQueue(database, { pollingIntervalSeconds: 0.5 });
    try {
      const broken = await createMailer(flaky(99), again, { retryLimit: 2, retryDelaySeconds: 0 });
      expect(() => broken.deliver(message)).not.toThrow();
      await broken.idle();
      expect(attempts).toHaveLength(3);
      expect(await again.failures()).toEqual([
        expect.objectContaining({ name: 'mail.send', error: '421 try again later', attempts: 3 }),
      ]);
    } finally {
      await again.close();
      await database.close();
    }
  });

  it('an unreachable SMTP server fails neither the action nor the notification', async () => {
    const dead = await localSmtpServer();
    await dead.close();
    const app = await testApp({ SMTP_URL: dead.url, MAIL_FROM: 'scout@example.test' });
    try {
      const { alice, bob } = await teamOf(app);
      await assignTask(app, alice, bob, 'Still assigned');
      expect(await app.database.prisma.notification.count({ where: { userId: bob.id } })).toBe(1);
    } finally {
      // Closing stops the retries; the failure is logged, not thrown.
      await app.close();
    }
  });

  it('the outbox writes whole files only', async () => {
    const dir = path.join(tmpdir(), `outbox-${Date.now()}`);
    const outbox = outboxTransport(dir, 'Scoutbase <scout@example.test>');
    await outbox.send(message);
    await outbox.send({ ...message, subject: 'Again' });
    const files = (await readdir(dir)).sort();
    await rm(dir, { recursive: true, force: true });
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml') && !f.startsWith('.'))).toBe(true);
  });
});

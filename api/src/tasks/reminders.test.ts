import { expect, it } from 'vitest';
import { sendBody, signedInUser, testApp } from '../../test/harness.ts';
import { sendDueReminders } from './rules.ts';
import { timeSpan } from '../shared/timeWords.ts';

it('the app runs the due-reminder pass on its interval and stops it on close', async () => {
  const app = await testApp({ DUE_REMINDER_INTERVAL_SECONDS: '0.05' });
  expect(app.config.tasks.dueReminderIntervalMs).toBe(50);
  try {
    const user = await signedInUser(app);
    const response = await sendBody(app, user.cookie, 'POST', '/api/tasks', {
      title: 'Call the location manager',
      dueDate: new Date(Date.now() + 3600_000).toISOString(),
    });
    expect(response.status).toBe(201);
    const deadline = Date.now() + 10_000;
    let reminders = 0;
    while (Date.now() < deadline) {
      reminders = await app.database.prisma.notification.count({ where: { userId: user.id, title: 'Task due soon' } });
      if (reminders > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(reminders).toBe(1);
    // Later passes do not repeat it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await app.database.prisma.notification.count({ where: { userId: user.id, title: 'Task due soon' } })).toBe(
      1,
    );
  } finally {
    await app.close();
  }
});

it('DUE_REMINDER_INTERVAL_SECONDS=0 turns reminders off', async () => {
  const app = await testApp({ DUE_REMINDER_INTERVAL_SECONDS: '0' });
  expect(app.config.tasks.dueReminderIntervalMs).toBe(0);
  await app.close();
});

it("reminder texts say when in words, never a raw ISO time (the server does not know the reader's time zone)", async () => {
  const app = await testApp();
  try {
    const user = await signedInUser(app);
    const db = app.database.prisma;
    const now = new Date('2026-11-25T12:00:00.000Z');
    await db.task.createMany({
      data: [
        { title: 'Scout the barn', creatorId: user.id, dueDate: new Date('2026-11-25T10:43:00.000Z') },
        { title: 'Call the diner', creatorId: user.id, dueDate: new Date('2026-11-25T17:00:00.000Z') },
        // Due in an hour less the moments the reminder pass takes: "in 1 hour", not "in 59 minutes".
        { title: 'Recce the quarry', creatorId: user.id, dueDate: new Date('2026-11-25T12:59:58.000Z') },
        { title: 'Book the crane', creatorId: user.id, dueDate: new Date('2026-11-22T09:00:00.000Z') },
        // 5 days 23 hours late: "overdue by 5 days", as the task's card says (issue 53: it said "6 days ago").
        { title: 'Return the van', creatorId: user.id, dueDate: new Date('2026-11-19T13:00:00.000Z') },
      ],
    });
    await sendDueReminders(app.services, now);
    const messages = (await db.notification.findMany({ where: { userId: user.id } })).map((n) => n.message).sort();
    expect(messages).toEqual([
      '"Book the crane" is overdue by 3 days.',
      '"Call the diner" is due in 5 hours.',
      '"Recce the quarry" is due in 1 hour.',
      '"Return the van" is overdue by 5 days.',
      '"Scout the barn" is overdue by 1 hour.',
    ]);
    // The card's words for the same task at the same time: one computation for both.
    expect(`Overdue by ${timeSpan(now.getTime() - new Date('2026-11-19T13:00:00.000Z').getTime())}`).toBe(
      'Overdue by 5 days',
    );
  } finally {
    await app.close();
  }
});

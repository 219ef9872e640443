import { expect, it } from 'vitest';
import { signedInUser, testApp } from '../../test/harness.ts';

it('the app runs the due-reminder pass on its interval and stops it on close', async () => {
  const app = await testApp({ DUE_REMINDER_INTERVAL_SECONDS: '0.05' });
  expect(app.config.tasks.dueReminderIntervalMs).toBe(50);
  try {
    const user = await signedInUser(app);
    const response = await app.request('/api/tasks', {
      method: 'POST',
      cookie: user.cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Call the location manager',
        dueDate: new Date(Date.now() + 3600_000).toISOString(),
      }),
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

import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';
import { person } from '../../test/harness.ts';

// The console's paths. The owner of the suite is made an administrator (on a fresh instance the
// first account is one anyway); the stranger is an ordinary person, and gets a 404 for every path
// as for one that does not exist; signed out, every row also checks the 401. "Other" is a person
// made for the row, so an administrator's allowed change touches nobody the other rows rely on.

async function ownerIsAdmin(t: AccessHarness) {
  await t.app.database.prisma.user.update({ where: { id: t.owner.id }, data: { isAdmin: true } });
}

/** Someone with an account and nothing else, for an administrator to act on. */
async function somebody(t: AccessHarness) {
  await ownerIsAdmin(t);
  const who = person();
  return t.app.database.prisma.user.create({
    data: { email: who.email, firstName: 'Some', lastName: 'Body', settings: { create: {} } },
  });
}

async function nothingChanged(t: AccessHarness, given: { id: string }) {
  const user = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: given.id } });
  expect(user).toMatchObject({ disabledAt: null, isAdmin: false, quotaBytes: null });
}

async function ownerUnchanged(t: AccessHarness) {
  const owner = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.owner.id } });
  expect(owner).toMatchObject({ disabledAt: null, isAdmin: true });
}

async function instanceUnchanged(t: AccessHarness) {
  expect(await t.app.database.prisma.instanceSettings.findUnique({ where: { id: 1 } })).toBeNull();
}

export const accessCases: AccessCase[] = [
  // ───── the people list ─────
  accessCase({
    route: 'GET /api/admin/users',
    name: 'is not there for a person who is not an administrator',
    given: ownerIsAdmin,
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/admin/users',
    name: 'lists every account for an administrator',
    given: ownerIsAdmin,
    as: 'owner',
    expect: 'allowed',
  }),

  // ───── one person: self and other ─────
  accessCase({
    route: 'PATCH /api/admin/users/:id',
    name: 'an ordinary person cannot disable another',
    given: somebody,
    asks: (other) => ({ path: `/api/admin/users/${other.id}`, body: { disabled: true, admin: true } }),
    expect: 'not-found',
    unchanged: nothingChanged,
  }),
  accessCase({
    route: 'PATCH /api/admin/users/:id',
    name: 'an ordinary person cannot make themselves an administrator',
    given: ownerIsAdmin,
    asks: (_given, t) => ({ path: `/api/admin/users/${t.stranger.id}`, body: { admin: true, quotaBytes: 1 } }),
    expect: 'not-found',
    async unchanged(t) {
      const stranger = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.stranger.id } });
      expect(stranger).toMatchObject({ isAdmin: false, quotaBytes: null });
    },
  }),
  accessCase({
    route: 'PATCH /api/admin/users/:id',
    name: 'an administrator sets another person’s quota',
    given: somebody,
    asks: (other) => ({ path: `/api/admin/users/${other.id}`, body: { quotaBytes: 5_000_000 } }),
    as: 'owner',
    expect: 'allowed',
    async unchanged(t, other) {
      const user = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: other.id } });
      expect(user.quotaBytes).toBe(5_000_000n);
    },
  }),
  accessCase({
    route: 'PATCH /api/admin/users/:id',
    name: 'an administrator cannot disable themselves',
    given: ownerIsAdmin,
    asks: (_given, t) => ({ path: `/api/admin/users/${t.owner.id}`, body: { disabled: true } }),
    as: 'owner',
    expect: 'refused',
    unchanged: ownerUnchanged,
  }),
  accessCase({
    route: 'POST /api/admin/users/:id/password-reset',
    name: 'an ordinary person cannot send another a reset link',
    given: somebody,
    asks: (other) => `/api/admin/users/${other.id}/password-reset`,
    expect: 'not-found',
    async unchanged(t, other) {
      expect(await t.app.database.prisma.accountToken.count({ where: { userId: other.id } })).toBe(0);
    },
  }),
  accessCase({
    route: 'POST /api/admin/users/:id/password-reset',
    name: 'an ordinary person cannot send themselves one this way either',
    given: ownerIsAdmin,
    asks: (_given, t) => `/api/admin/users/${t.stranger.id}/password-reset`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/admin/users/:id/password-reset',
    name: 'an administrator sends another person a reset link',
    given: somebody,
    asks: (other) => `/api/admin/users/${other.id}/password-reset`,
    as: 'owner',
    expect: 'allowed',
  }),

  // ───── the audit log ─────
  accessCase({
    route: 'GET /api/admin/audit',
    name: 'is not there for a person who is not an administrator',
    given: ownerIsAdmin,
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/admin/audit',
    name: 'is not exported for a person who is not an administrator',
    given: ownerIsAdmin,
    asks: () => '/api/admin/audit?format=csv',
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/admin/audit',
    name: 'an administrator reads it',
    given: ownerIsAdmin,
    as: 'owner',
    expect: 'allowed',
  }),

  // ───── the instance ─────
  accessCase({
    route: 'GET /api/admin/instance',
    name: 'is not there for a person who is not an administrator',
    given: ownerIsAdmin,
    expect: 'not-found',
  }),
  accessCase({
    route: 'GET /api/admin/instance',
    name: 'an administrator reads it',
    given: ownerIsAdmin,
    as: 'owner',
    expect: 'allowed',
  }),
  accessCase({
    route: 'PATCH /api/admin/instance',
    name: 'an ordinary person cannot open sign-up or drop two-factor',
    given: ownerIsAdmin,
    asks: () => ({ body: { allowSignup: true, requireTwoFactor: false } }),
    expect: 'not-found',
    unchanged: instanceUnchanged,
  }),
  accessCase({
    route: 'PATCH /api/admin/instance',
    name: 'an administrator sends an empty change (nothing to change, the page answers)',
    given: ownerIsAdmin,
    asks: () => ({ body: {} }),
    as: 'owner',
    expect: 'allowed',
    unchanged: instanceUnchanged,
  }),
  accessCase({
    route: 'POST /api/admin/jobs/:queue/retry',
    name: 'an ordinary person cannot retry jobs',
    given: ownerIsAdmin,
    asks: () => '/api/admin/jobs/reminders/retry',
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/admin/jobs/:queue/retry',
    name: 'an administrator retries a queue’s failed jobs',
    async given(t) {
      await ownerIsAdmin(t);
      const [queue] = await t.app.services.jobs.stats();
      if (!queue) throw new Error('the app has no job queue');
      return queue.name;
    },
    asks: (queue) => `/api/admin/jobs/${encodeURIComponent(queue)}/retry`,
    as: 'owner',
    expect: 'allowed',
  }),
  accessCase({
    route: 'POST /api/admin/jobs/:queue/retry',
    name: 'an administrator is told of a queue that does not exist',
    given: ownerIsAdmin,
    asks: () => '/api/admin/jobs/no-such-queue/retry',
    as: 'owner',
    expect: 'not-found',
  }),
];

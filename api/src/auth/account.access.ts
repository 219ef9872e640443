import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase, strangersView } from '../../test/access-rows.ts';
import { person } from '../../test/harness.ts';

// Rows for sign-up, verified addresses and passwords (account-routes.ts). No path names a person:
// each acts on the asker, or on whoever holds a token, so the rows check that nothing of the
// owner's changes or shows.

async function ownersPassword(t: AccessHarness) {
  const owner = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.owner.id } });
  return owner.passwordHash;
}

async function ownersPasswordStays(t: AccessHarness, before: string | null) {
  expect(await ownersPassword(t)).toBe(before);
  expect((await t.app.request('/api/auth/user', { cookie: t.owner.cookie })).status).toBe(200);
}

export function accountCases(): AccessCase[] {
  return [
    accessCase({
      route: 'GET /api/auth/user',
      name: 'answers the asker’s own profile, never the owner’s',
      expect: 'own-data-only',
    }),
    accessCase({
      route: 'GET /api/auth/firebase-token',
      name: 'a token for the asker’s own session, which reads only the asker’s profile',
      expect: 'own-data-only',
      async unchanged(t) {
        const { token } = (await strangersView(t, '/api/auth/firebase-token')) as { token: string };
        const me = await t.app.request('/api/auth/user', { headers: { authorization: `Bearer ${token}` } });
        expect(((await me.json()) as { id: string }).id).toBe(t.stranger.id);
      },
    }),
    accessCase({
      route: 'POST /api/auth/signup',
      name: 'anyone may sign up; a taken address (the owner’s) changes nothing and shows nothing',
      given: ownersPassword,
      asks: (_given, t) => ({ body: { ...person(), email: t.owner.email } }),
      as: 'anonymous',
      expect: 'own-data-only',
      unchanged: ownersPasswordStays,
    }),
    accessCase({
      route: 'POST /api/auth/verify-email',
      name: 'a made-up link verifies nothing',
      asks: () => ({ body: { token: 'A'.repeat(43) } }),
      as: 'anonymous',
      expect: 'refused',
    }),
    accessCase({
      route: 'POST /api/auth/verify-email/resend',
      name: 'sends only the asker their own link (the stranger is verified already)',
      expect: 'refused',
      async unchanged(t) {
        await t.app.services.mailer?.idle();
        const owners = { userId: t.owner.id, purpose: 'verify_email' as const };
        // The one link of the owner's sign-up; none from the stranger's request.
        expect(await t.app.database.prisma.accountToken.count({ where: owners })).toBe(1);
      },
    }),
    accessCase({
      route: 'POST /api/auth/password-reset',
      name: 'anyone may ask for the owner’s reset link: the link goes to the owner’s mailbox only',
      given: ownersPassword,
      asks: (_given, t) => ({ body: { email: t.owner.email } }),
      as: 'anonymous',
      expect: 'own-data-only',
      unchanged: ownersPasswordStays,
    }),
    accessCase({
      route: 'POST /api/auth/password-reset/confirm',
      name: 'a made-up link sets nobody’s password',
      given: ownersPassword,
      asks: () => ({ body: { token: 'B'.repeat(43), password: 'taken over at last' } }),
      as: 'anonymous',
      expect: 'refused',
      unchanged: ownersPasswordStays,
    }),
    accessCase({
      route: 'POST /api/auth/password',
      // (The harness gives everyone one password, so the stranger's own check is the one that fails here.)
      name: 'changes only the asker’s password, and only with their current one',
      given: ownersPassword,
      asks: () => ({ body: { currentPassword: 'a guess at a password', newPassword: 'taken over at last' } }),
      expect: 'refused',
      unchanged: ownersPasswordStays,
    }),
  ];
}

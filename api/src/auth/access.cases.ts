import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase, strangersView } from '../../test/access-rows.ts';
import { type TOTP, URI } from 'otpauth';
import { accountCases } from './account.access.ts';

/** A second signed-in device of the owner's (a session row), to go after or to end. */
async function ownersOtherSession(t: AccessHarness) {
  const session = await t.app.database.prisma.session.create({
    data: { userId: t.owner.id, expiresAt: new Date(Date.now() + 3_600_000), userAgent: 'Owner laptop' },
  });
  return session.id;
}

async function sessionStays(t: AccessHarness, sessionId: string) {
  expect(await t.app.database.prisma.session.count({ where: { id: sessionId } })).toBe(1);
}

// Rows for the account's own paths under /api/auth (the Security screen).
export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/auth/sessions',
    name: "lists the stranger's own devices, none of the owner's",
    given: ownersOtherSession,
    expect: 'own-data-only',
    async unchanged(t, ownerSession) {
      expect(JSON.stringify(await strangersView(t, '/api/auth/sessions'))).not.toContain(ownerSession);
    },
  }),
  accessCase({
    route: 'DELETE /api/auth/sessions/:id',
    name: "cannot sign out the owner's device (404, as for no such session)",
    given: ownersOtherSession,
    asks: (ownerSession) => `/api/auth/sessions/${ownerSession}`,
    expect: 'not-found',
    unchanged: sessionStays,
  }),
  accessCase({
    route: 'DELETE /api/auth/sessions/:id',
    name: 'the owner signs out one of their own devices',
    given: ownersOtherSession,
    asks: (ownerSession) => `/api/auth/sessions/${ownerSession}`,
    as: 'owner',
    expect: 'allowed',
    async unchanged(t, ownerSession) {
      expect(await t.app.database.prisma.session.count({ where: { id: ownerSession } })).toBe(0);
    },
  }),
  accessCase({
    route: 'DELETE /api/auth/sessions',
    name: "signs out only the stranger's other devices, never the owner's",
    given: ownersOtherSession,
    expect: 'own-data-only',
    async unchanged(t, ownerSession) {
      await sessionStays(t, ownerSession);
      // The stranger's own session is the one kept.
      expect((await t.app.request('/api/auth/user', { cookie: t.stranger.cookie })).status).toBe(200);
    },
  }),
  ...twoFactorCases(),
  ...accountCases(),
];

// ───────────── two-factor (two-factor.ts): no path names a person, so each acts on the asker only ─────────────

interface OwnersTwoFactor {
  totp: TOTP;
  recoveryCodes: string[];
}
let ownersTwoFactor: OwnersTwoFactor | undefined;

/** Turns two-factor on for the owner (once), as the Security screen does. */
async function ownerWithTwoFactor(t: AccessHarness): Promise<OwnersTwoFactor> {
  const on = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.owner.id } });
  if (ownersTwoFactor && on.twoFactorEnabledAt) return ownersTwoFactor;
  const post = (path: string, body?: unknown) =>
    t.app.request(path, {
      method: 'POST',
      cookie: t.owner.cookie,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  const setup = (await (await post('/api/auth/two-factor/setup')).json()) as { otpauthUrl: string };
  const totp = URI.parse(setup.otpauthUrl) as TOTP;
  const enabled = await post('/api/auth/two-factor/enable', { code: totp.generate() });
  const { recoveryCodes } = (await enabled.json()) as { recoveryCodes: string[] };
  ownersTwoFactor = { totp, recoveryCodes };
  return ownersTwoFactor;
}

async function ownersTwoFactorStays(t: AccessHarness, given: OwnersTwoFactor) {
  const owner = await t.app.database.prisma.user.findUniqueOrThrow({
    where: { id: t.owner.id },
    include: { recoveryCodes: { where: { usedAt: null } } },
  });
  expect(owner.twoFactorEnabledAt).not.toBeNull();
  expect(owner.recoveryCodes).toHaveLength(given.recoveryCodes.length);
}

function twoFactorCases(): AccessCase[] {
  return [
    accessCase({
      route: 'POST /api/auth/two-factor/setup',
      name: "starts the stranger's own setup; the owner's secret stays",
      given: ownerWithTwoFactor,
      expect: 'own-data-only',
      unchanged: ownersTwoFactorStays,
    }),
    accessCase({
      route: 'POST /api/auth/two-factor/enable',
      name: "the owner's code turns nothing on for the stranger",
      given: ownerWithTwoFactor,
      asks: (given) => ({ body: { code: given.totp.generate() } }),
      expect: 'refused',
      async unchanged(t, given) {
        await ownersTwoFactorStays(t, given);
        const stranger = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.stranger.id } });
        expect(stranger.twoFactorEnabledAt).toBeNull();
      },
    }),
    accessCase({
      route: 'POST /api/auth/two-factor/disable',
      name: "the owner's password and recovery code do not turn the owner's two-factor off",
      given: ownerWithTwoFactor,
      asks: (given, t) => ({ body: { password: t.owner.password, code: given.recoveryCodes[0] } }),
      expect: 'refused',
      unchanged: ownersTwoFactorStays,
    }),
    accessCase({
      route: 'POST /api/auth/two-factor/disable',
      name: 'the owner turns their own two-factor off with password and code',
      given: ownerWithTwoFactor,
      asks: (given, t) => ({ body: { password: t.owner.password, code: given.recoveryCodes[1] } }),
      as: 'owner',
      expect: 'allowed',
      async unchanged(t) {
        const owner = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.owner.id } });
        expect(owner).toMatchObject({ twoFactorEnabledAt: null, twoFactorSecret: null });
      },
    }),
  ];
}

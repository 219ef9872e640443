import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase, strangersView } from '../../test/access-rows.ts';

async function ownerSettings(t: AccessHarness) {
  await t.app.database.prisma.userSettings.upsert({
    where: { userId: t.owner.id },
    create: { userId: t.owner.id, darkMode: true, autoSave: false },
    update: { darkMode: true, autoSave: false },
  });
}

async function ownerSettingsUnchanged(t: AccessHarness) {
  const s = await t.app.database.prisma.userSettings.findUniqueOrThrow({ where: { userId: t.owner.id } });
  expect(s).toMatchObject({ darkMode: true, autoSave: false, emailNotifications: true, pushNotifications: true });
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/user/settings',
    name: "answers the stranger's own settings, not the owner's",
    given: ownerSettings,
    expect: 'own-data-only',
    async unchanged(t) {
      expect(await strangersView(t, '/api/user/settings')).toMatchObject({ darkMode: false, autoSave: true });
    },
  }),
  accessCase({
    route: 'PATCH /api/user/settings',
    name: "changes only the stranger's own settings",
    given: ownerSettings,
    asks: () => ({ body: { emailNotifications: false, darkMode: false } }),
    expect: 'own-data-only',
    unchanged: ownerSettingsUnchanged,
  }),
  accessCase({
    route: 'PATCH /api/user/profile',
    name: "changes only the stranger's own name",
    async given(t) {
      await t.app.database.prisma.user.update({ where: { id: t.owner.id }, data: { firstName: 'Owner' } });
    },
    asks: () => ({ body: { firstName: 'Stranger' } }),
    expect: 'own-data-only',
    async unchanged(t) {
      const owner = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.owner.id } });
      expect(owner.firstName).toBe('Owner');
    },
  }),
];

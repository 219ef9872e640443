import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';

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
  {
    route: 'GET /api/user/settings',
    name: "answers the stranger's own settings, not the owner's",
    async arrange(t) {
      await ownerSettings(t);
      return { method: 'GET', path: '/api/user/settings' };
    },
    expect: 'own-data-only',
    async unchanged(t) {
      const response = await t.app.request('/api/user/settings', { cookie: t.stranger.cookie });
      expect(await response.json()).toMatchObject({ darkMode: false, autoSave: true });
    },
  },
  {
    route: 'PATCH /api/user/settings',
    name: "changes only the stranger's own settings",
    async arrange(t) {
      await ownerSettings(t);
      return { method: 'PATCH', path: '/api/user/settings', body: { emailNotifications: false, darkMode: false } };
    },
    expect: 'own-data-only',
    unchanged: ownerSettingsUnchanged,
  },
  {
    route: 'PATCH /api/user/profile',
    name: "changes only the stranger's own name",
    async arrange(t) {
      await t.app.database.prisma.user.update({ where: { id: t.owner.id }, data: { firstName: 'Owner' } });
      return { method: 'PATCH', path: '/api/user/profile', body: { firstName: 'Stranger' } };
    },
    expect: 'own-data-only',
    async unchanged(t) {
      const owner = await t.app.database.prisma.user.findUniqueOrThrow({ where: { id: t.owner.id } });
      expect(owner.firstName).toBe('Owner');
    },
  },
];

import { z } from 'zod';
import type { ViewerContext } from '../context.ts';
import { parse } from '../shared/validation.ts';

export interface Settings {
  emailNotifications: boolean;
  pushNotifications: boolean;
  darkMode: boolean;
  autoSave: boolean;
}

/** What a user has until they change something. */
export const DEFAULT_SETTINGS: Settings = {
  emailNotifications: true,
  pushNotifications: true,
  darkMode: false,
  autoSave: true,
};

const switchField = (name: string) => z.boolean({ message: `${name} must be true or false.` }).optional();

export const settingsInput = z.strictObject({
  emailNotifications: switchField('emailNotifications'),
  pushNotifications: switchField('pushNotifications'),
  darkMode: switchField('darkMode'),
  autoSave: switchField('autoSave'),
});

const settingsSelect = { emailNotifications: true, pushNotifications: true, darkMode: true, autoSave: true } as const;
const settingsColumns = Object.keys(settingsSelect)
  .map((name) => `"${name}"`)
  .join(', ');

/**
 * The viewer's settings, or the defaults when they never saved any. Every page asks for them (the
 * shell's theme, the gallery screen's auto-save), so they are read by hand (Db.$sql), not by Prisma.
 */
export async function getSettings(ctx: ViewerContext): Promise<Settings> {
  const [stored] = await ctx.db.$sql<Settings>(
    `SELECT ${settingsColumns} FROM "UserSettings" WHERE "userId" = $1::uuid`,
    [ctx.viewer.id],
  );
  return stored ?? { ...DEFAULT_SETTINGS };
}

/** Saves the switches given; the others keep their stored (or default) value. */
export async function updateSettings(ctx: ViewerContext, input: unknown): Promise<Settings> {
  const data = parse(settingsInput, input);
  const changes = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)) as Partial<Settings>;
  return ctx.db.userSettings.upsert({
    where: { userId: ctx.viewer.id },
    create: { userId: ctx.viewer.id, ...DEFAULT_SETTINGS, ...changes },
    update: changes,
    select: settingsSelect,
  });
}

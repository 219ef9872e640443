import { builder } from '../graphql/builder.ts';
import { viewerOnlyUserField } from '../graphql/shapes.ts';
import { getSettings, type Settings, updateSettings } from './rules.ts';

export const UserSettingsObject = builder.objectRef<Settings>('UserSettings').implement({
  description: "A user's preferences; the defaults until they save any.",
  fields: (t) => ({
    emailNotifications: t.exposeBoolean('emailNotifications'),
    pushNotifications: t.exposeBoolean('pushNotifications'),
    darkMode: t.exposeBoolean('darkMode'),
    autoSave: t.exposeBoolean('autoSave'),
  }),
});

viewerOnlyUserField(
  'settings',
  UserSettingsObject,
  'Only for the signed-in user themselves; null on anyone else.',
  getSettings,
);

builder.mutationField('updateSettings', (t) =>
  t.field({
    type: UserSettingsObject,
    description: 'Saves the switches given; omitted ones keep their value.',
    errors: {},
    args: {
      emailNotifications: t.arg.boolean({ required: false }),
      pushNotifications: t.arg.boolean({ required: false }),
      darkMode: t.arg.boolean({ required: false }),
      autoSave: t.arg.boolean({ required: false }),
    },
    resolve: (_root, args, ctx) =>
      updateSettings(ctx, Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null))),
  }),
);

import { builder } from '../graphql/builder.ts';
import { updateProfile, visibleUsersWhere } from './rules.ts';

export const UserType = builder.prismaNode('User', {
  description: 'A person with an account.',
  id: { field: 'id' },
  // node(id:) may only reach users the viewer can see.
  findUnique: (id, ctx) => ({ id, AND: [visibleUsersWhere(ctx.viewer)] }),
  fields: (t) => ({
    email: t.exposeString('email'),
    displayName: t.string({
      description: 'The name to show: the display name, else first and last name, else the e-mail.',
      select: { displayName: true, firstName: true, lastName: true, email: true },
      resolve: (user) => user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email),
    }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    profileImageUrl: t.exposeString('profileImageUrl', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: 'User',
    description: 'The signed-in user.',
    resolve: (query, _root, _args, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: ctx.viewer.id } }),
  }),
);

builder.mutationField('updateProfile', (t) =>
  t.prismaField({
    type: 'User',
    description: "Changes the signed-in user's first and last name. Omitted fields stay as they are.",
    errors: {},
    args: {
      firstName: t.arg.string({ required: false }),
      lastName: t.arg.string({ required: false }),
    },
    resolve: async (query, _root, args, ctx) => {
      const user = await updateProfile(ctx.db, ctx.viewer, args);
      return ctx.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
);

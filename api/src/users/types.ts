import type { User } from '../generated/prisma/client.ts';
import { builder } from '../graphql/builder.ts';
import { rowMutation } from '../graphql/shapes.ts';
import { visibleUsersWhere } from '../access/rules.ts';
import { emailFor, nameToShow, updateProfile } from './rules.ts';

export const UserType = builder.prismaNode('User', {
  description: 'A person with an account.',
  id: { field: 'id' },
  // Each field reads only its own columns (never the password hash): `viewer { id … }` reads none.
  select: { id: true },
  // node(id:) may only reach users the viewer can see.
  findUnique: (id, ctx) => ({ id, AND: [visibleUsersWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    email: t.string({
      nullable: true,
      description: 'Only for the signed-in user and the people who share a project with them; null otherwise.',
      select: { id: true, email: true },
      resolve: (user, _args, ctx) => emailFor(ctx, user),
    }),
    displayName: t.string({
      description:
        'The name to show: the display name, else first and last name, else the e-mail (when it may be known).',
      select: { id: true, displayName: true, firstName: true, lastName: true, email: true },
      resolve: async (user, _args, ctx) => nameToShow(user, await emailFor(ctx, user)),
    }),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    profileImageUrl: t.exposeString('profileImageUrl', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const onlyTheId = (query: { select?: object; include?: object }) =>
  !query.include && query.select !== undefined && Object.keys(query.select).join() === 'id';

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: 'User',
    description: 'The signed-in user.',
    resolve: (query, _root, _args, ctx) =>
      // Who the viewer is the session already said: the row is read only for what else is asked.
      // (The type is the whole row; the fields asked read only its id.)
      onlyTheId(query)
        ? ({ id: ctx.viewer.id } as User)
        : ctx.db.user.findUniqueOrThrow({ ...query, where: { id: ctx.viewer.id } }),
  }),
);

builder.mutationField('updateProfile', (t) =>
  rowMutation(t, 'User', {
    description: "Changes the signed-in user's first and last name. Omitted fields stay as they are.",
    args: {
      firstName: t.arg.string({ required: false }),
      lastName: t.arg.string({ required: false }),
    },
    change: (args, ctx) => updateProfile(ctx.db, ctx.viewer, args),
  }),
);

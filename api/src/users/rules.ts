import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Viewer } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import { parse } from '../shared/validation.ts';

/** Users a viewer may see: themselves and the people they share a project with. */
export function visibleUsersWhere(viewer: Viewer): Prisma.UserWhereInput {
  return {
    OR: [{ id: viewer.id }, { memberships: { some: { project: { members: { some: { userId: viewer.id } } } } } }],
  };
}

/** The shape of GET /api/auth/user. */
export async function profileOf(db: Db, userId: string) {
  const user = await db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      id: true,
      email: true,
      firstName: true,
      lastName: true,
      displayName: true,
      profileImageUrl: true,
      createdAt: true,
    },
  });
  return {
    ...user,
    displayName: user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email),
  };
}

const nameField = (label: string) =>
  z
    .string()
    .trim()
    .max(100, `${label} is too long.`)
    .transform((v) => (v === '' ? null : v))
    .nullish();

export const profileInput = z.object({
  firstName: nameField('First name'),
  lastName: nameField('Last name'),
});

/** Changes the viewer's own first and last name. */
export async function updateProfile(db: Db, viewer: Viewer, input: z.input<typeof profileInput>) {
  const data = parse(profileInput, input);
  return db.user.update({
    where: { id: viewer.id },
    data: {
      ...(data.firstName !== undefined && { firstName: data.firstName }),
      ...(data.lastName !== undefined && { lastName: data.lastName }),
    },
  });
}

import type { Prisma, ProjectRole } from '../generated/prisma/client.ts';

/** Projects the user belongs to (as owner or member): project owners are members too (role 'owner'). */
export function projectMemberWhere(userId: string): Prisma.ProjectWhereInput {
  return { members: { some: { userId } } };
}

/** Owners (the creator and anyone invited as owner) invite, cancel invitations and remove members. */
export const MANAGING_ROLE = 'owner' satisfies ProjectRole;

export function managesMembers(role: ProjectRole) {
  return role === MANAGING_ROLE;
}

/** Projects whose members the user manages: managesMembers, as a query. */
export function managedProjectWhere(userId: string): Prisma.ProjectWhereInput {
  return { members: { some: { userId, role: MANAGING_ROLE } } };
}

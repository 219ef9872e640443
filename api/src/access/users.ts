import { Prisma } from '../generated/prisma/client.ts';
import { projectMemberWhere } from './projects.ts';
import { type SqlViewer, sqlAlias, viewerMark } from './sql.ts';

/** Users a viewer may see (and assign tasks to): themselves and the people they share a project with. */
export function visibleUsersWhere(viewerId: string): Prisma.UserWhereInput {
  return { OR: [{ id: viewerId }, { memberships: { some: { project: projectMemberWhere(viewerId) } } }] };
}

/** visibleUsersWhere as SQL, a condition on the user row `alias`. */
export function visibleUserSqlOf(alias: string, viewer: SqlViewer) {
  const u = sqlAlias(alias);
  return Prisma.sql`(${u}.id = ${viewer} OR EXISTS (
    SELECT 1 FROM "ProjectMember" theirs JOIN "ProjectMember" mine ON mine."projectId" = theirs."projectId"
    WHERE theirs."userId" = ${u}.id AND mine."userId" = ${viewer}))`;
}

/** visibleUsersWhere as SQL text, with the viewer's id as the positional parameter `mark`. */
export function visibleUserSql(alias: string, mark: string): string {
  return visibleUserSqlOf(alias, viewerMark(mark)).sql;
}

import { Prisma } from '../generated/prisma/client.ts';
import { type SqlViewer, sqlAlias } from './sql.ts';

/** Tasks a user may see: the ones they created and the ones assigned to them. */
export function taskVisibleWhere(userId: string): Prisma.TaskWhereInput {
  return { OR: [{ creatorId: userId }, { assigneeId: userId }] };
}

/** taskVisibleWhere as SQL, a condition on the task row `alias`. */
export function visibleTaskSql(alias: string, viewer: SqlViewer) {
  const t = sqlAlias(alias);
  return Prisma.sql`(${t}."creatorId" = ${viewer} OR ${t}."assigneeId" = ${viewer})`;
}

/**
 * What the viewer may do with a task they can see. Only its creator edits (title, description,
 * priority, due date, assignee, gallery) and deletes it; creator and assignee both complete and
 * reopen it, since either may be the one who knows it is (not) done.
 */
export function taskPermissions(viewerId: string, task: { creatorId: string; assigneeId: string | null }) {
  const creator = task.creatorId === viewerId;
  const doer = creator || task.assigneeId === viewerId;
  return { edit: creator, delete: creator, complete: doer, reopen: doer };
}

import { runEvery } from '../infra/jobs/schedule.ts';
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';
import type { Services, Viewer, ViewerContext } from '../context.ts';
import type { Db } from '../infra/db/database.ts';
import { record } from '../domain-events/events.ts';
import {
  accessShareWhere,
  galleryAccessWhere,
  readableGallerySql,
  taskPermissions,
  taskVisibleWhere,
  viewerMark,
  visibleTaskSql,
  visibleUserSql,
  visibleUsersWhere,
} from '../access/rules.ts';
import { publishNotifications, writeNotification } from '../notifications/rules.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { dateProblem } from '../shared/dates.ts';
import { appLink } from '../shared/links.ts';
import { timeSpan } from '../shared/timeWords.ts';
import { parse } from '../shared/validation.ts';
import { emailFor, nameToShow } from '../users/rules.ts';
import { isUuid } from '../shared/ids.ts';

// ───────────────────────────── who sees what ─────────────────────────────

/** Overdue is derived, never stored: still pending and due before now. */
export function overdueWhere(now: Date = new Date()): Prisma.TaskWhereInput {
  return { status: 'pending', dueDate: { lt: now } };
}

export function isOverdue(task: { status: string; dueDate: Date | null }, now: Date = new Date()): boolean {
  return task.status === 'pending' && task.dueDate !== null && task.dueDate.getTime() < now.getTime();
}

export type TaskSort = 'newest' | 'dueDate';

export interface TaskFilter {
  status?: 'pending' | 'completed' | null;
  /** true: only overdue tasks; false: only tasks that are not overdue. */
  overdue?: boolean | null;
}

const filterInput = z.strictObject({
  status: z.enum(['pending', 'completed'], { message: "status must be 'pending' or 'completed'." }).nullish(),
  overdue: z.boolean({ message: 'overdue must be true or false.' }).nullish(),
});

const sortInput = z
  .enum(['newest', 'dueDate'], { message: "sort must be 'newest' or 'dueDate'." })
  .nullish()
  .transform((v) => v ?? 'newest');

/** The where clause of a task list: what the viewer may see, narrowed by the filter. */
export function taskListWhere(viewer: Viewer, filter: TaskFilter = {}, now: Date = new Date()): Prisma.TaskWhereInput {
  const f = parse(filterInput, filter);
  const and: Prisma.TaskWhereInput[] = [taskVisibleWhere(viewer.id)];
  if (f.status) and.push({ status: f.status });
  if (f.overdue === true) and.push(overdueWhere(now));
  // Not NOT(overdueWhere): SQL's NOT of a comparison with a missing due date is unknown, which
  // dropped pending tasks without one.
  if (f.overdue === false)
    and.push({ OR: [{ status: { not: 'pending' } }, { dueDate: null }, { dueDate: { gte: now } }] });
  return { AND: and };
}

/**
 * newest: newest first. dueDate: soonest (most overdue) due date first, tasks without a due date
 * last, newest first among equals. The id breaks ties so cursors are stable.
 */
export function taskOrder(sort?: string | null): Prisma.TaskOrderByWithRelationInput[] {
  const newest: Prisma.TaskOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];
  if (parse(sortInput, sort) === 'newest') return newest;
  return [{ dueDate: { sort: 'asc', nulls: 'last' } }, ...newest];
}

/** People the viewer may assign a task to: the people they may see (themselves and their crews). */
export function assignableWhere(viewerId: string): Prisma.UserWhereInput {
  return visibleUsersWhere(viewerId);
}

/**
 * The related gallery with what it takes to tell whether the viewer may read it: an assignee may
 * see a task whose gallery they cannot open, and then sees no gallery at all.
 */
export function relatedGallerySelect(viewerId: string) {
  return {
    select: {
      id: true,
      name: true,
      ownerId: true,
      shares: {
        where: accessShareWhere(viewerId),
        select: { id: true },
        take: 1,
      },
    },
  } satisfies Prisma.GalleryDefaultArgs;
}

export function readableGallery(
  viewerId: string,
  gallery: { id: string; name: string; ownerId: string; shares: unknown[] } | null,
): { id: string; name: string } | null {
  if (!gallery || (gallery.ownerId !== viewerId && gallery.shares.length === 0)) return null;
  return { id: gallery.id, name: gallery.name };
}

const personSelect = { select: { id: true, email: true, displayName: true, firstName: true, lastName: true } };

// The record shape REST answers and the assistant reads: the task plus the names a card shows.
function taskSelect(viewerId: string) {
  return {
    id: true,
    title: true,
    description: true,
    priority: true,
    status: true,
    creatorId: true,
    assigneeId: true,
    dueDate: true,
    completedAt: true,
    galleryId: true,
    createdAt: true,
    updatedAt: true,
    creator: personSelect,
    assignee: personSelect,
    gallery: relatedGallerySelect(viewerId),
  } satisfies Prisma.TaskSelect;
}

type TaskRow = Prisma.TaskGetPayload<{ select: ReturnType<typeof taskSelect> }>;

export function nameOf(user: {
  email: string;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
}) {
  return user.displayName ?? ([user.firstName, user.lastName].filter(Boolean).join(' ') || user.email);
}

async function present(ctx: Pick<ViewerContext, 'db' | 'viewer'>, task: TaskRow, now = new Date()) {
  const viewerId = ctx.viewer.id;
  // A task outlives the project its two people shared; the e-mail follows users/rules.ts.
  const person = async (u: TaskRow['creator'] | null) => {
    if (!u) return null;
    const email = await emailFor(ctx, u);
    return { id: u.id, email, displayName: nameToShow(u, email) };
  };
  const gallery = readableGallery(viewerId, task.gallery);
  return {
    ...task,
    galleryId: gallery?.id ?? null,
    gallery,
    creator: await person(task.creator),
    assignee: await person(task.assignee),
    isOverdue: isOverdue(task, now),
    viewerCanEdit: taskPermissions(viewerId, task).edit,
  };
}

export type TaskRecord = Awaited<ReturnType<typeof present>>;

// ───────────────────────────── input ─────────────────────────────

const assigneeMessage = 'You can assign a task to yourself or to a member of one of your projects.';
const galleryMessage = 'The related gallery does not exist or you cannot see it.';

const title = z
  .string({ message: 'Task title is required.' })
  .refine((v) => v.trim() !== '', 'Task title is required.');
const description = z
  .string({ message: 'description must be text.' })
  .nullish()
  .transform((v) => (v == null || v.trim() === '' ? null : v));
const priority = z.enum(['low', 'medium', 'high'], { message: "Priority must be 'low', 'medium' or 'high'." });
const dueDate = z
  .union([z.string(), z.null()], { message: 'Due date must be an ISO date and time, or null.' })
  .transform((v, ctx) => {
    if (v === null || v.trim() === '') return null;
    const date = new Date(v);
    // Only ISO-8601 dates: `Date` alone would also read "tomorrow-ish" formats differently per engine.
    if (
      !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim()) ||
      Number.isNaN(date.getTime())
    ) {
      ctx.addIssue({ code: 'custom', message: 'Due date must be an ISO date and time, or null.' });
      return z.NEVER;
    }
    const problem = dateProblem(date, 'Due date');
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return date;
  });
const optionalId = (message: string) =>
  z.union([z.string(), z.null()], { message }).transform((v, ctx) => {
    if (v === null || v === '') return null;
    if (!isUuid(v)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return v.toLowerCase();
  });

export const createTaskInput = z.strictObject({
  title,
  description: description.optional(),
  priority: priority.nullish().transform((v) => v ?? 'medium'),
  dueDate: dueDate.optional(),
  assigneeId: optionalId(assigneeMessage).optional(),
  galleryId: optionalId(galleryMessage).optional(),
});

export const updateTaskInput = z.strictObject({
  title: title.optional(),
  description: description.optional(),
  priority: priority.optional(),
  dueDate: dueDate.optional(),
  assigneeId: optionalId(assigneeMessage).optional(),
  galleryId: optionalId(galleryMessage).optional(),
});

export type CreateTaskInput = z.input<typeof createTaskInput>;
export type UpdateTaskInput = z.input<typeof updateTaskInput>;

// ───────────────────────────── checks ─────────────────────────────

/** The viewer may assign to themselves or to anyone who shares a project with them. */
async function checkAssignee(db: Db | Prisma.TransactionClient, viewer: Viewer, assigneeId: string) {
  if (assigneeId === viewer.id) return;
  const allowed = await db.user.count({ where: { id: assigneeId, AND: [assignableWhere(viewer.id)] } });
  if (!allowed) throw new ValidationError(assigneeMessage, 'assigneeId');
}

async function checkGallery(db: Db | Prisma.TransactionClient, userId: string, galleryId: string) {
  const found = await db.gallery.count({ where: { id: galleryId, AND: [galleryAccessWhere(userId, 'read')] } });
  if (!found) throw new ValidationError(galleryMessage, 'galleryId');
}

async function personName(tx: Prisma.TransactionClient, userId: string) {
  return nameOf(
    await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { email: true, displayName: true, firstName: true, lastName: true },
    }),
  );
}

/** Who did something to which task, as every task event says it. */
async function taskActor(tx: Prisma.TransactionClient, viewer: Viewer, task: { id: string; title: string }) {
  return { actorId: viewer.id, actorName: await personName(tx, viewer.id), taskId: task.id, taskTitle: task.title };
}

/**
 * Tells everyone a task concerns (its creator, its assignee, and whoever it was taken from) that it
 * changed, so their open task lists read it again (live: 'tasks:changed').
 */
function announceTask(services: Pick<Services, 'events'>, taskId: string, ...people: (string | null | undefined)[]) {
  for (const userId of new Set(people)) if (userId) services.events.publish('tasks:changed', userId, { taskId });
}

/** A task the viewer may see, or a 404 (also for tasks that exist but are not theirs). */
async function visibleTask(db: Db, viewer: Viewer, id: string) {
  if (!isUuid(id)) throw new NotFoundError('Task');
  const task = await db.task.findFirst({ where: { id, AND: [taskVisibleWhere(viewer.id)] } });
  if (!task) throw new NotFoundError('Task');
  return task;
}

// ───────────────────────────── operations ─────────────────────────────

/** A person on a task as the list's statement reads them: the e-mail only where it may be known. */
const personSql = (alias: string) => `CASE WHEN ${alias}.id IS NOT NULL THEN json_build_object(
    'id', ${alias}.id, 'email', CASE WHEN ${visibleUserSql(alias, '$1')} THEN ${alias}.email END,
    'displayName', ${alias}."displayName", 'firstName', ${alias}."firstName", 'lastName', ${alias}."lastName") END`;

// The tasks viewer $1 created or was given, with status $2 and overdue-ness $3 at $4 when given,
// each with its two people and its gallery where the viewer may read it (taskListWhere, taskOrder,
// present). list.test.ts holds it to Prisma's answer for every filter, sort and viewer.
const taskListSql = (sort: TaskSort) => `
  SELECT t.id, t.title, t.description, t.priority::text AS priority, t.status::text AS status,
         t."creatorId", t."assigneeId", t."dueDate" AT TIME ZONE 'UTC' AS "dueDate",
         t."completedAt" AT TIME ZONE 'UTC' AS "completedAt", t."galleryId",
         t."createdAt" AT TIME ZONE 'UTC' AS "createdAt", t."updatedAt" AT TIME ZONE 'UTC' AS "updatedAt",
         ${personSql('c')} AS creator, ${personSql('a')} AS assignee,
         CASE WHEN g.id IS NOT NULL AND ${readableGallerySql('g', '$1')}
              THEN json_build_object('id', g.id, 'name', g.name) END AS gallery
  FROM "Task" t
  JOIN "User" c ON c.id = t."creatorId"
  LEFT JOIN "User" a ON a.id = t."assigneeId"
  LEFT JOIN "Gallery" g ON g.id = t."galleryId"
  WHERE ${visibleTaskSql('t', viewerMark('$1')).sql}
    AND ($2::text IS NULL OR t.status::text = $2)
    AND ($3::boolean IS NULL OR $3 = (t.status = 'pending' AND t."dueDate" IS NOT NULL
                                      AND t."dueDate" < ($4::timestamptz AT TIME ZONE 'UTC')))
  ORDER BY ${sort === 'dueDate' ? 't."dueDate" ASC NULLS LAST, ' : ''}t."createdAt" DESC, t.id DESC`;

type Person = {
  id: string;
  email: string | null;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
};
type TaskListRow = Omit<TaskRow, 'creator' | 'assignee' | 'gallery'> & {
  creator: Person;
  assignee: Person | null;
  gallery: { id: string; name: string } | null;
};

/**
 * The viewer's task list in one hand-written statement: through Prisma it took two (the tasks with
 * their people and galleries, then everyone whose e-mail the viewer may know), and Prisma's work
 * around them cost more CPU than their SQL (bench/api.ts, `GET /api/tasks`).
 */
export async function listTasks(
  ctx: ViewerContext,
  filter: TaskFilter = {},
  sort?: TaskSort | null,
): Promise<TaskRecord[]> {
  const now = new Date();
  const f = parse(filterInput, filter);
  const rows = await ctx.db.$sql<TaskListRow>(taskListSql(parse(sortInput, sort)), [
    ctx.viewer.id,
    f.status ?? null,
    f.overdue ?? null,
    now.toISOString(),
  ]);
  const person = (u: Person) => ({ id: u.id, email: u.email, displayName: nameToShow(u, u.email) });
  return rows.map((task) => ({
    ...task,
    galleryId: task.gallery?.id ?? null,
    creator: person(task.creator),
    assignee: task.assignee && person(task.assignee),
    isOverdue: isOverdue(task, now),
    viewerCanEdit: taskPermissions(ctx.viewer.id, task).edit,
  }));
}

export async function getTask(ctx: ViewerContext, id: string): Promise<TaskRecord> {
  await visibleTask(ctx.db, ctx.viewer, id);
  return present(ctx, await ctx.db.task.findUniqueOrThrow({ where: { id }, select: taskSelect(ctx.viewer.id) }));
}

export async function createTask(ctx: ViewerContext, input: CreateTaskInput): Promise<TaskRecord> {
  const data = parse(createTaskInput, input);
  const { viewer } = ctx;
  const { created, afterCommit } = await ctx.db.$transaction(async (tx) => {
    if (data.assigneeId) await checkAssignee(tx, viewer, data.assigneeId);
    if (data.galleryId) await checkGallery(tx, viewer.id, data.galleryId);
    const task = await tx.task.create({
      data: {
        creatorId: viewer.id,
        title: data.title.trim(),
        description: data.description ?? null,
        priority: data.priority,
        dueDate: data.dueDate ?? null,
        assigneeId: data.assigneeId ?? null,
        galleryId: data.galleryId ?? null,
      },
      select: taskSelect(viewer.id),
    });
    const afterCommit = await record(tx, ctx, {
      type: 'task.created',
      ...(await taskActor(tx, viewer, task)),
      priority: task.priority,
      assigneeId: task.assigneeId,
    });
    return { created: task, afterCommit };
  });
  await afterCommit();
  announceTask(ctx, created.id, viewer.id, created.assigneeId);
  return present(ctx, created);
}

/** Changes a task; only its creator may (the assignee may only complete it). */
export async function updateTask(ctx: ViewerContext, id: string, input: UpdateTaskInput): Promise<TaskRecord> {
  const { viewer } = ctx;
  const task = await visibleTask(ctx.db, viewer, id);
  if (!taskPermissions(viewer.id, task).edit)
    throw new ForbiddenError('Only the person who created this task can change it.');
  const data = parse(updateTaskInput, input);
  const { updated, afterCommit } = await ctx.db.$transaction(async (tx) => {
    // An edit form sends every field back: what stays as it was is not checked again, so a task
    // whose assignee has since left the project can still have its title changed.
    if (data.assigneeId && data.assigneeId !== task.assigneeId) await checkAssignee(tx, viewer, data.assigneeId);
    if (data.galleryId && data.galleryId !== task.galleryId) await checkGallery(tx, viewer.id, data.galleryId);
    const dueChanged =
      data.dueDate !== undefined && (data.dueDate?.getTime() ?? null) !== (task.dueDate?.getTime() ?? null);
    const row = await tx.task.update({
      where: { id },
      data: {
        ...(data.title !== undefined && { title: data.title.trim() }),
        ...(data.description !== undefined && { description: data.description }),
        ...(data.priority !== undefined && { priority: data.priority }),
        ...(data.assigneeId !== undefined && { assigneeId: data.assigneeId }),
        ...(data.galleryId !== undefined && { galleryId: data.galleryId }),
        // A new due date deserves its own reminder.
        ...(dueChanged && { dueDate: data.dueDate, dueNotifiedAt: null }),
      },
      select: taskSelect(viewer.id),
    });
    const afterCommit =
      row.assigneeId && row.assigneeId !== task.assigneeId
        ? await record(tx, ctx, {
            type: 'task.assigned',
            ...(await taskActor(tx, viewer, row)),
            assigneeId: row.assigneeId,
          })
        : undefined;
    return { updated: row, afterCommit };
  });
  await afterCommit?.();
  announceTask(ctx, id, task.creatorId, task.assigneeId, updated.assigneeId);
  return present(ctx, updated);
}

/** Marks a task done; its creator or its assignee may. Completing twice changes nothing. */
export async function completeTask(ctx: ViewerContext, id: string): Promise<TaskRecord> {
  const { viewer } = ctx;
  const task = await visibleTask(ctx.db, viewer, id);
  if (!taskPermissions(viewer.id, task).complete) throw new ForbiddenError('You cannot complete this task.');
  if (task.status !== 'completed') {
    const afterCommit = await ctx.db.$transaction(async (tx) => {
      // The status test makes two concurrent completions record one event.
      const done = await tx.task.updateMany({
        where: { id, status: 'pending' },
        data: { status: 'completed', completedAt: new Date() },
      });
      if (done.count !== 1) return undefined;
      return record(tx, ctx, {
        type: 'task.completed',
        ...(await taskActor(tx, viewer, task)),
        creatorId: task.creatorId,
      });
    });
    await afterCommit?.();
    announceTask(ctx, id, task.creatorId, task.assigneeId);
  }
  return present(ctx, await ctx.db.task.findUniqueOrThrow({ where: { id }, select: taskSelect(ctx.viewer.id) }));
}

/**
 * Puts a completed task back to pending (completedAt cleared); its creator or its assignee may.
 * The other of the two hears of it: work came back to them, or what they were told was done is not.
 * Reopening a pending task changes nothing.
 */
export async function reopenTask(ctx: ViewerContext, id: string): Promise<TaskRecord> {
  const { viewer } = ctx;
  const task = await visibleTask(ctx.db, viewer, id);
  if (!taskPermissions(viewer.id, task).reopen) throw new ForbiddenError('You cannot reopen this task.');
  if (task.status === 'completed') {
    const afterCommit = await ctx.db.$transaction(async (tx) => {
      // The status test makes two concurrent reopenings record one event.
      const reopened = await tx.task.updateMany({
        where: { id, status: 'completed' },
        data: { status: 'pending', completedAt: null },
      });
      if (reopened.count !== 1) return undefined;
      return record(tx, ctx, {
        type: 'task.reopened',
        ...(await taskActor(tx, viewer, task)),
        creatorId: task.creatorId,
        assigneeId: task.assigneeId,
      });
    });
    await afterCommit?.();
    announceTask(ctx, id, task.creatorId, task.assigneeId);
  }
  return present(ctx, await ctx.db.task.findUniqueOrThrow({ where: { id }, select: taskSelect(ctx.viewer.id) }));
}

export async function deleteTask(ctx: ViewerContext, id: string): Promise<{ id: string }> {
  const task = await visibleTask(ctx.db, ctx.viewer, id);
  if (!taskPermissions(ctx.viewer.id, task).delete)
    throw new ForbiddenError('Only the person who created this task can delete it.');
  await ctx.db.task.delete({ where: { id } });
  announceTask(ctx, id, task.creatorId, task.assigneeId);
  return { id };
}

// ───────────────────────────── due reminders ─────────────────────────────

export const DUE_SOON_MS = 24 * 60 * 60 * 1000;
const REMINDER_BATCH = 200;

// "in 5 hours", "overdue by 3 days": relative to the reminder, because the server does not know the
// reader's time zone, so a clock time in a notification or e-mail would be wrong for most readers.
// timeSpan counts as the task's card does (web/src/lib/format.ts formatTaskDue).

/**
 * One pass of due reminders: every pending task due within the next 24 hours (or already past due)
 * that has not been reminded of its current due date tells its assignee (or its creator when no
 * one is assigned), once. Safe to run on several instances at once: a task is claimed by setting
 * dueNotifiedAt before the notification is written, in the same transaction.
 */
export async function sendDueReminders(services: Services, now: Date = new Date()): Promise<number> {
  let sent = 0;
  for (;;) {
    const due = await services.db.task.findMany({
      where: { status: 'pending', dueNotifiedAt: null, dueDate: { lte: new Date(now.getTime() + DUE_SOON_MS) } },
      select: { id: true, title: true, dueDate: true, creatorId: true, assigneeId: true },
      orderBy: { dueDate: 'asc' },
      take: REMINDER_BATCH,
    });
    const notices: { id: string; userId: string }[] = [];
    for (const task of due) {
      const notice = await services.db.$transaction(async (tx) => {
        const claimed = await tx.task.updateMany({
          where: { id: task.id, status: 'pending', dueNotifiedAt: null, dueDate: task.dueDate },
          data: { dueNotifiedAt: now },
        });
        if (claimed.count !== 1 || !task.dueDate) return null;
        const overdue = task.dueDate.getTime() < now.getTime();
        return writeNotification(tx, {
          userId: task.assigneeId ?? task.creatorId,
          type: 'task',
          title: overdue ? 'Task overdue' : 'Task due soon',
          message: overdue
            ? `"${task.title}" is overdue by ${timeSpan(now.getTime() - task.dueDate.getTime())}.`
            : `"${task.title}" is due in ${timeSpan(task.dueDate.getTime() - now.getTime(), Math.round)}.`,
          link: appLink.task(task.id),
        });
      });
      if (notice) notices.push(notice);
    }
    publishNotifications(services, notices);
    sent += notices.length;
    if (due.length < REMINDER_BATCH) return sent;
  }
}

/**
 * Runs the reminder pass as a job about every `intervalMs`, once per interval across all instances
 * (each task is reminded once anyway: the pass claims it); returns the function that stops it.
 */
export function startDueReminders(services: Services, intervalMs: number): Promise<() => void> {
  return runEvery(services.jobs, 'tasks.due-reminders', intervalMs / 1000, () => sendDueReminders(services), {
    logger: services.logger,
    timeoutSeconds: 10 * 60,
  });
}

import { encodeGlobalID } from '@pothos/plugin-relay';
import { TaskPriority, TaskStatus } from '../generated/prisma/enums.ts';
import { rawIdOf, registerNamedIds } from '../shared/ids.ts';
import { builder } from '../graphql/builder.ts';
import { ownEvents } from '../live/rules.ts';
import { listConnection, prismaEnum, removalMutation, rowMutation } from '../graphql/shapes.ts';
import { taskPermissions, taskVisibleWhere } from '../access/rules.ts';
import {
  completeTask,
  createTask,
  deleteTask,
  assignableWhere,
  isOverdue,
  readableGallery,
  relatedGallerySelect,
  reopenTask,
  taskListWhere,
  taskOrder,
  updateTask,
} from './rules.ts';

export const TaskPriorityEnum = prismaEnum(
  TaskPriority,
  'TaskPriority',
  'How urgent a task is; medium unless said otherwise.',
);

export const TaskStatusEnum = prismaEnum(TaskStatus, 'TaskStatus', 'pending until someone completes it.');

export const TaskSortEnum = builder.enumType('TaskSort', {
  description: 'Orders of the task list.',
  values: {
    NEWEST: { value: 'newest', description: 'Newest first.' },
    DUE_DATE: { value: 'dueDate', description: 'Soonest due date first (most overdue at the top), no due date last.' },
  } as const,
});

const TaskGalleryObject = builder.objectRef<{ id: string; name: string }>('TaskGallery').implement({
  description: 'The gallery a task is about, as its card names it; open it with node(id:).',
  fields: (t) => ({
    id: t.id({ description: 'The Gallery global id.', resolve: (g) => encodeGlobalID('Gallery', g.id) }),
    name: t.exposeString('name'),
  }),
});

export const TaskType = builder.prismaNode('Task', {
  description: 'Something to do, created by one person and optionally assigned to another.',
  id: { field: 'id' },
  // node(id:) reaches only tasks the viewer created or was assigned.
  findUnique: (id, ctx) => ({ id, AND: [taskVisibleWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    priority: t.expose('priority', { type: TaskPriorityEnum }),
    status: t.expose('status', { type: TaskStatusEnum }),
    dueDate: t.expose('dueDate', { type: 'DateTime', nullable: true, description: 'When it is due, if ever.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    isOverdue: t.boolean({
      description: 'Pending and due before now. Derived on every read, never stored.',
      select: { status: true, dueDate: true },
      resolve: (task) => isOverdue(task),
    }),
    viewerCanEdit: t.boolean({
      description:
        'Whether the signed-in user may edit or delete this task (only its creator may); its creator and assignee may both complete and reopen it.',
      select: { creatorId: true, assigneeId: true },
      resolve: (task, _args, ctx) => taskPermissions(ctx.viewer.id, task).edit,
    }),
    creator: t.relation('creator', { description: 'Who created the task; only they can edit or delete it.' }),
    assignee: t.relation('assignee', {
      nullable: true,
      description: 'Who should do it (may complete it); null when unassigned.',
    }),
    relatedGalleryId: t.id({
      nullable: true,
      description: 'Global id of the gallery the task is about; null when none, or when you cannot open it.',
      select: (_args, ctx) => ({ gallery: relatedGallerySelect(ctx.viewer.id) }),
      resolve: (task, _args, ctx) => {
        const gallery = readableGallery(ctx.viewer.id, task.gallery);
        return gallery ? encodeGlobalID('Gallery', gallery.id) : null;
      },
    }),
    relatedGallery: t.field({
      type: TaskGalleryObject,
      nullable: true,
      description: 'The gallery the task is about (its id and name); null when none, or when you cannot open it.',
      select: (_args, ctx) => ({ gallery: relatedGallerySelect(ctx.viewer.id) }),
      resolve: (task, _args, ctx) => readableGallery(ctx.viewer.id, task.gallery),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

/** Accepts a Relay global id of the given type, or a raw uuid (what the REST API uses). */
function rawId(value: string | null | undefined, typename: string, field: string): string | null | undefined {
  if (value === undefined || value === null || value === '') return value === '' ? null : value;
  return rawIdOf(value, typename, field);
}

builder.queryField('tasks', (t) =>
  listConnection(t, 'Task', {
    description: 'Tasks the viewer created or was assigned, newest first unless sort says otherwise.',
    args: {
      sort: t.arg({ type: TaskSortEnum, required: false, description: 'NEWEST when absent.' }),
      status: t.arg({ type: TaskStatusEnum, required: false }),
      overdue: t.arg.boolean({
        required: false,
        description: 'true: only overdue tasks (pending, due before now); false: only the others.',
      }),
    },
    where: ({ status, overdue }, ctx) => taskListWhere(ctx.viewer, { status, overdue }),
    orderBy: ({ sort }) => taskOrder(sort),
    counted: true,
  }),
);

// The task screen's three lists. Each is a node of its own, so the screen reads them with one
// fragment and pages each on its own (a fragment can be spread only once on Query).
const TASK_LISTS = {
  pending: { status: 'pending' },
  completed: { status: 'completed' },
  overdue: { overdue: true },
} as const;
type TaskListKind = keyof typeof TASK_LISTS;
registerNamedIds('TaskList', Object.keys(TASK_LISTS));

const TaskListKindEnum = builder.enumType('TaskListKind', {
  description: 'Which of the task screen’s lists.',
  values: {
    pending: { description: 'Not yet completed, overdue ones included.' },
    completed: {},
    overdue: { description: 'Pending and due before now.' },
  } as const,
});

const TaskListType = builder.node(builder.objectRef<{ kind: TaskListKind }>('TaskList'), {
  description: 'One of the task screen’s lists of the viewer’s tasks (those they created or were assigned).',
  id: { resolve: (list) => list.kind },
  loadOne: (kind) => (Object.hasOwn(TASK_LISTS, kind) ? { kind: kind as TaskListKind } : null),
  fields: (t) => ({
    kind: t.expose('kind', { type: TaskListKindEnum }),
    tasks: t.prismaConnection({
      type: 'Task',
      cursor: 'id',
      args: { sort: t.arg({ type: TaskSortEnum, required: false, description: 'NEWEST when absent.' }) },
      totalCount: (list, _args, ctx) => ctx.db.task.count({ where: taskListWhere(ctx.viewer, TASK_LISTS[list.kind]) }),
      resolve: (query, list, { sort }, ctx) =>
        ctx.db.task.findMany({
          ...query,
          where: taskListWhere(ctx.viewer, TASK_LISTS[list.kind]),
          orderBy: taskOrder(sort),
        }),
    }),
  }),
});

builder.queryField('taskList', (t) =>
  t.field({
    type: TaskListType,
    description: 'One of the task screen’s lists: pending, completed or overdue.',
    args: { kind: t.arg({ type: TaskListKindEnum, required: true }) },
    resolve: (_root, { kind }) => ({ kind }),
  }),
);

builder.queryField('assignableUsers', (t) =>
  listConnection(t, 'User', {
    description:
      'People the viewer may assign a task to: themselves and the members of their projects, by name (the assignee picker).',
    where: (_args, ctx) => assignableWhere(ctx.viewer.id),
    orderBy: [{ displayName: { sort: 'asc', nulls: 'last' } }, { firstName: 'asc' }, { email: 'asc' }, { id: 'asc' }],
  }),
);

builder.mutationField('createTask', (t) =>
  rowMutation(t, 'Task', {
    description: "Creates a task. Title required; priority medium by default. Emits 'task_created' activity.",
    args: {
      title: t.arg.string({ required: true }),
      description: t.arg.string({ required: false }),
      priority: t.arg({ type: TaskPriorityEnum, required: false }),
      dueDate: t.arg({ type: 'DateTime', required: false }),
      assigneeId: t.arg.id({ required: false, description: 'Yourself or a member of one of your projects.' }),
      galleryId: t.arg.id({ required: false, description: 'A gallery you can see.' }),
    },
    change: (args, ctx) =>
      createTask(ctx, {
        title: args.title,
        description: args.description,
        priority: args.priority,
        dueDate: args.dueDate ? args.dueDate.toISOString() : null,
        assigneeId: rawId(args.assigneeId?.toString(), 'User', 'assigneeId'),
        galleryId: rawId(args.galleryId?.toString(), 'Gallery', 'galleryId'),
      }),
  }),
);

builder.mutationField('updateTask', (t) =>
  rowMutation(t, 'Task', {
    description: 'Changes a task you created. Omitted arguments stay as they are; null clears.',
    args: {
      id: t.arg.globalID({ required: true }),
      title: t.arg.string({ required: false }),
      description: t.arg.string({ required: false }),
      priority: t.arg({ type: TaskPriorityEnum, required: false }),
      dueDate: t.arg({ type: 'DateTime', required: false }),
      assigneeId: t.arg.id({ required: false }),
      galleryId: t.arg.id({ required: false }),
    },
    change: (args, ctx) => {
      const input: Record<string, unknown> = {};
      if (args.title !== undefined) input.title = args.title ?? '';
      if (args.description !== undefined) input.description = args.description;
      if (args.priority != null) input.priority = args.priority;
      if (args.dueDate !== undefined) input.dueDate = args.dueDate ? args.dueDate.toISOString() : null;
      if (args.assigneeId !== undefined)
        input.assigneeId = rawId(args.assigneeId?.toString() ?? null, 'User', 'assigneeId');
      if (args.galleryId !== undefined)
        input.galleryId = rawId(args.galleryId?.toString() ?? null, 'Gallery', 'galleryId');
      return updateTask(ctx, args.id.id, input);
    },
  }),
);

builder.mutationField('completeTask', (t) =>
  rowMutation(t, 'Task', {
    description: 'Marks a task completed (its creator or assignee may). Completing twice is harmless.',
    args: { id: t.arg.globalID({ required: true }) },
    change: (args, ctx) => completeTask(ctx, args.id.id),
  }),
);

builder.mutationField('reopenTask', (t) =>
  rowMutation(t, 'Task', {
    description:
      'Puts a completed task back to pending and clears completedAt (its creator or assignee may); the other of the two is notified. Reopening a pending task is harmless.',
    args: { id: t.arg.globalID({ required: true }) },
    change: (args, ctx) => reopenTask(ctx, args.id.id),
  }),
);

builder.mutationField('deleteTask', (t) =>
  removalMutation(t, 'Task', {
    description: 'Deletes a task you created; answers its global id.',
    args: { id: t.arg.globalID({ required: true }) },
    change: (args, ctx) => deleteTask(ctx, args.id.id),
  }),
);

const TasksChangedEvent = builder.objectRef<{ taskId: string }>('TasksChangedEvent').implement({
  description: 'A task you created or were given changed (created, assigned, edited, completed, reopened or deleted).',
  fields: (t) => ({
    taskId: t.id({ resolve: (e) => encodeGlobalID('Task', e.taskId) }),
  }),
});

builder.subscriptionField('tasksChanged', (t) =>
  t.field({
    type: TasksChangedEvent,
    description: 'Each change to one of your tasks, made by you or anyone else: read your task lists again.',
    subscribe: (_root, _args, ctx) => ownEvents(ctx, 'tasks:changed'),
    resolve: (e) => e,
  }),
);

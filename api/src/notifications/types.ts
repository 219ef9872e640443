import { NotificationType } from '../generated/prisma/enums.ts';
import { builder } from '../graphql/builder.ts';
import { listConnection, prismaEnum, rowMutation } from '../graphql/shapes.ts';
import {
  markAllNotificationsRead,
  markNotificationRead,
  notificationOrder,
  notificationVisibleWhere,
  unreadNotificationCount,
} from './rules.ts';

export const NotificationTypeEnum = prismaEnum(NotificationType, 'NotificationType', 'What a notification is about.');

export const NotificationObject = builder.prismaNode('Notification', {
  description: 'Something that concerns the signed-in user: a task assigned or due, a gallery shared…',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, AND: [notificationVisibleWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    type: t.expose('type', { type: NotificationTypeEnum }),
    title: t.exposeString('title'),
    message: t.exposeString('message'),
    isRead: t.exposeBoolean('isRead'),
    link: t.exposeString('link', { nullable: true, description: 'Where in the app it leads, if anywhere.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('notifications', (t) =>
  listConnection(t, 'Notification', {
    description: "The signed-in user's notifications, newest first.",
    args: { unreadOnly: t.arg.boolean({ required: false, description: 'Only the unread ones.' }) },
    where: ({ unreadOnly }, ctx) => ({
      ...notificationVisibleWhere(ctx.viewer.id),
      ...(unreadOnly ? { isRead: false } : {}),
    }),
    orderBy: notificationOrder,
    counted: true,
  }),
);

builder.queryField('unreadNotificationCount', (t) =>
  t.int({
    description: 'How many of the signed-in user’s notifications are unread (the bell’s badge).',
    resolve: (_root, _args, ctx) => unreadNotificationCount(ctx),
  }),
);

builder.mutationField('markNotificationRead', (t) =>
  rowMutation(t, 'Notification', {
    description: 'Marks one of your notifications read.',
    args: { id: t.arg.globalID({ required: true }) },
    change: (args, ctx) => markNotificationRead(ctx, args.id.id),
  }),
);

builder.mutationField('markAllNotificationsRead', (t) =>
  t.int({
    description: 'Marks all your notifications read; answers how many were unread.',
    errors: {},
    resolve: async (_root, _args, ctx) => (await markAllNotificationsRead(ctx)).updated,
  }),
);

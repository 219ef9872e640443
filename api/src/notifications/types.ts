import { NotificationType } from '../generated/prisma/enums.ts';
import { builder } from '../graphql/builder.ts';
import {
  markAllNotificationsRead,
  markNotificationRead,
  notificationOrder,
  notificationVisibleWhere,
  unreadNotificationCount,
} from './rules.ts';

export const NotificationTypeEnum = builder.enumType(NotificationType, {
  name: 'NotificationType',
  description: 'What a notification is about.',
});

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
  t.prismaConnection({
    type: 'Notification',
    cursor: 'id',
    description: "The signed-in user's notifications, newest first.",
    args: { unreadOnly: t.arg.boolean({ required: false, description: 'Only the unread ones.' }) },
    totalCount: (_connection, { unreadOnly }, ctx) =>
      ctx.db.notification.count({
        where: { ...notificationVisibleWhere(ctx.viewer.id), ...(unreadOnly ? { isRead: false } : {}) },
      }),
    resolve: (query, _root, { unreadOnly }, ctx) =>
      ctx.db.notification.findMany({
        ...query,
        where: { ...notificationVisibleWhere(ctx.viewer.id), ...(unreadOnly ? { isRead: false } : {}) },
        orderBy: notificationOrder,
      }),
  }),
);

builder.queryField('unreadNotificationCount', (t) =>
  t.int({
    description: 'How many of the signed-in user’s notifications are unread (the bell’s badge).',
    resolve: (_root, _args, ctx) => unreadNotificationCount(ctx),
  }),
);

builder.mutationField('markNotificationRead', (t) =>
  t.prismaField({
    type: 'Notification',
    description: 'Marks one of your notifications read.',
    errors: {},
    args: { id: t.arg.globalID({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const n = await markNotificationRead(ctx, args.id.id);
      return ctx.db.notification.findUniqueOrThrow({ ...query, where: { id: n.id } });
    },
  }),
);

builder.mutationField('markAllNotificationsRead', (t) =>
  t.int({
    description: 'Marks all your notifications read; answers how many were unread.',
    errors: {},
    resolve: async (_root, _args, ctx) => (await markAllNotificationsRead(ctx)).updated,
  }),
);

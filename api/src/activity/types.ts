import { ActivityAction, ResourceType } from '../generated/prisma/enums.ts';
import { builder } from '../graphql/builder.ts';
import { listConnection, prismaEnum } from '../graphql/shapes.ts';
import { activityDetailsFor, activityFeedWhere, activityOrder } from './rules.ts';

export const ActivityActionEnum = prismaEnum(ActivityAction, 'ActivityAction', 'What someone did.');

export const ResourceTypeEnum = prismaEnum(ResourceType, 'ResourceType', 'The kind of thing an activity was about.');

export const ActivityObject = builder.prismaNode('Activity', {
  description: 'One thing someone did: the dashboard feed and the audit trail.',
  id: { field: 'id' },
  // node(id:) reaches the viewer's own actions; the feed also lists others' actions on shared galleries.
  findUnique: (id, ctx) => ({ id, userId: ctx.viewer.id }),
  fields: (t) => ({
    action: t.expose('action', { type: ActivityActionEnum }),
    resourceType: t.expose('resourceType', { type: ResourceTypeEnum }),
    resourceId: t.exposeString('resourceId', {
      nullable: true,
      description: 'The raw id of the resource (it may have been deleted since).',
    }),
    resourceName: t.exposeString('resourceName', { description: 'Its name at the time.' }),
    metadata: t.field({
      type: 'JSON',
      description:
        "Details: size in bytes for files; for shares the permission, and the project only to the project's members.",
      select: { userId: true, metadata: true },
      resolve: (row, _args, ctx) => activityDetailsFor(ctx, row),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    actor: t.relation('user', { description: 'Who did it.' }),
  }),
});

builder.queryField('activity', (t) =>
  listConnection(t, 'Activity', {
    description:
      "The viewer's activity feed, newest first: their own actions and what others did to galleries shared with their projects.",
    where: (_args, ctx) => activityFeedWhere(ctx),
    orderBy: activityOrder,
  }),
);

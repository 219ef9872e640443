import type { ActivityAction, Prisma, ResourceType } from '../generated/prisma/client.ts';
import type { Db } from '../infra/db/database.ts';
import type { ViewerContext } from '../context.ts';
import { sharedGalleryWhere } from '../access/rules.ts';
import { emailFor, nameToShow } from '../users/rules.ts';

export interface ActivityInput {
  userId: string;
  action: ActivityAction;
  resourceType: ResourceType;
  resourceId?: string | null;
  resourceName: string;
  /** e.g. { size } in bytes for files, { sharedWith } for shares. */
  metadata?: Prisma.InputJsonObject;
}

/**
 * Records what a user did: the dashboard's feed and the audit trail. Pass the transaction the
 * action runs in, so the record and the action are written together or not at all.
 */
export async function recordActivity(db: Db | Prisma.TransactionClient, input: ActivityInput) {
  await db.activity.create({
    data: {
      userId: input.userId,
      action: input.action,
      resourceType: input.resourceType,
      resourceId: input.resourceId ?? null,
      resourceName: input.resourceName,
      metadata: input.metadata ?? {},
    },
  });
}

// ───────────────────────────── the feed ─────────────────────────────

/** Newest first; the id breaks ties so cursors are stable. */
export const activityOrder: Prisma.ActivityOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

export const ACTIVITY_LIMIT = 100;

/**
 * What the viewer's feed shows: their own actions, plus what anyone did to a gallery that is
 * shared with a project of theirs (or to their own galleries they shared with a project). Activity
 * rows name their resource without a relation, so the galleries are looked up first.
 */
export async function activityFeedWhere(ctx: ViewerContext): Promise<Prisma.ActivityWhereInput> {
  const userId = ctx.viewer.id;
  const shared = await ctx.db.gallery.findMany({
    where: sharedGalleryWhere(userId),
    select: { id: true },
    orderBy: { updatedAt: 'desc' },
    take: 1000,
  });
  if (shared.length === 0) return { userId };
  return { OR: [{ userId }, { resourceType: 'gallery', resourceId: { in: shared.map((g) => g.id) } }] };
}

// The shares list shows a member only the shares of their own projects (listShares); a share in
// the feed says as much. Only a gallery's owner shares it, so another's share row never concerns
// a gallery of the viewer's own. Asked once per request context.
const viewerProjects = new WeakMap<object, Promise<Set<string>>>();

/** An activity row's details as the viewer may know them: another's share names its project only to its members. */
export async function activityDetailsFor(
  ctx: Pick<ViewerContext, 'db' | 'viewer'>,
  row: { userId: string; metadata: Prisma.JsonValue },
): Promise<Prisma.JsonValue> {
  const details = row.metadata;
  if (row.userId === ctx.viewer.id || !details || typeof details !== 'object' || Array.isArray(details)) {
    return details;
  }
  if (!('projectId' in details || 'projectName' in details)) return details;
  let mine = viewerProjects.get(ctx);
  if (!mine) {
    mine = ctx.db.projectMember
      .findMany({ where: { userId: ctx.viewer.id }, select: { projectId: true } })
      .then((rows) => new Set(rows.map((row) => row.projectId)));
    viewerProjects.set(ctx, mine);
  }
  if (typeof details.projectId === 'string' && (await mine).has(details.projectId)) return details;
  // The project's member count says which project it is as well as its name does.
  const { projectId: _id, projectName: _name, sharedWith: _count, ...rest } = details;
  return rest;
}

export async function listActivity(ctx: ViewerContext, options: { limit?: number } = {}) {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 20), 1), ACTIVITY_LIMIT);
  const rows = await ctx.db.activity.findMany({
    where: await activityFeedWhere(ctx),
    orderBy: activityOrder,
    take: limit,
    select: {
      id: true,
      action: true,
      resourceType: true,
      resourceId: true,
      resourceName: true,
      metadata: true,
      createdAt: true,
      userId: true,
      user: { select: { id: true, email: true, displayName: true, firstName: true, lastName: true } },
    },
  });
  return Promise.all(
    rows.map(async ({ user, userId, ...row }) => ({
      ...row,
      metadata: await activityDetailsFor(ctx, { userId, metadata: row.metadata }),
      user: { id: user.id, displayName: nameToShow(user, await emailFor(ctx, user)) },
    })),
  );
}

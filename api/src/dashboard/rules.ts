import type { ViewerContext } from '../context.ts';
import { sharedGallerySql, viewerValue, visibleTaskSql } from '../access/rules.ts';
import { galleryCardInclude, galleryJson } from '../galleries/rules.ts';
import { galleryListQuery } from '../galleries/listing.ts';
import { storageUsage } from '../storage/rules.ts';

export interface DashboardStats {
  /** Files the viewer owns. */
  totalFiles: number;
  /** Of those, images (the dashboard's Total Photos). */
  totalPhotos: number;
  /** Galleries the viewer owns. */
  totalGalleries: number;
  /** Of those, the ones whose status is 'active'. */
  activeGalleries: number;
  /** Galleries of other people shared (actively) with a project the viewer belongs to. */
  sharedGalleries: number;
  /** Tasks the viewer created or was assigned, by state; overdue ones are also pending. */
  pendingTasks: number;
  overdueTasks: number;
  completedTasks: number;
  unreadNotifications: number;
}

/**
 * The dashboard's figures, counted by the database in one statement (each count uses an index on
 * the owner or user column), so the cost does not grow with what the page shows.
 */
export async function dashboardStats(ctx: ViewerContext): Promise<DashboardStats> {
  const userId = ctx.viewer.id;
  // Timestamps are stored as UTC without a zone: compare with UTC now, whatever the server's zone.
  const rows = await ctx.db.$queryRaw<Record<keyof DashboardStats, bigint | number>[]>`
    SELECT
      f.total AS "totalFiles",
      f.photos AS "totalPhotos",
      g.total AS "totalGalleries",
      g.active AS "activeGalleries",
      (SELECT count(*) FROM "Gallery" sg
        WHERE sg."ownerId" <> ${userId}::uuid AND ${sharedGallerySql('sg', viewerValue(userId))}) AS "sharedGalleries",
      t.pending AS "pendingTasks",
      t.overdue AS "overdueTasks",
      t.completed AS "completedTasks",
      (SELECT count(*) FROM "Notification" n WHERE n."userId" = ${userId}::uuid AND NOT n."isRead") AS "unreadNotifications"
    FROM
      (SELECT count(*) AS total, count(*) FILTER (WHERE "mimeType" LIKE 'image/%') AS photos
         FROM "File" WHERE "ownerId" = ${userId}::uuid) f,
      (SELECT count(*) AS total, count(*) FILTER (WHERE status = 'active') AS active
         FROM "Gallery" WHERE "ownerId" = ${userId}::uuid) g,
      (SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
              count(*) FILTER (WHERE status = 'pending' AND "dueDate" < (now() AT TIME ZONE 'UTC')) AS overdue,
              count(*) FILTER (WHERE status = 'completed') AS completed
         FROM "Task" vt WHERE ${visibleTaskSql('vt', viewerValue(userId))}) t`;
  const row = rows[0];
  if (!row) throw new Error('dashboard stats query returned no row');
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as DashboardStats;
}

export const RECENT_GALLERIES = 6;

/**
 * Everything the dashboard screen shows in one answer (GET /api/dashboard/stats): the figures,
 * storage use and the most recent galleries the viewer can see. Storage and galleries come from
 * their own domains' rules.
 */
export async function dashboardSummary(ctx: ViewerContext) {
  const { where, orderBy } = await galleryListQuery(ctx, { sort: 'recent' });
  const [stats, storage, recent] = await Promise.all([
    dashboardStats(ctx),
    storageUsage(ctx, ctx.viewer.id),
    ctx.db.gallery.findMany({ where, orderBy, include: galleryCardInclude(ctx.viewer.id), take: RECENT_GALLERIES }),
  ]);
  return { ...stats, storage, recentGalleries: recent.map((g) => galleryJson(ctx.viewer.id, g)) };
}

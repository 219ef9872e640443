import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Who may read, change or share a gallery, file, folder, project, task or person is decided in
// this folder alone. These are the shapes the rules had when they were written again elsewhere;
// finding one outside access/ (and outside tests and their fixtures) means a rule has a copy
// that can drift from the one access.test.ts checks.

const src = path.resolve(import.meta.dirname, '..');

const COPIES: Record<string, RegExp> = {
  'SQL join of gallery shares with project members (galleryAccessSql, sharedGallerySql)':
    /"GalleryShare"[\s\S]{0,400}?"ProjectMember"|"ProjectMember"[\s\S]{0,400}?"GalleryShare"/,
  'SQL join of project members with project members (visibleUserSqlOf)':
    /"ProjectMember"\s+\w+\s+JOIN\s+"ProjectMember"/,
  'Prisma membership filter (projectMemberWhere, managedProjectWhere, visibleUsersWhere)':
    /\b(?:members|memberships)\s*:\s*\{\s*some\s*:/,
  'Prisma filter on the shares that give access (galleryAccessWhere, sharedGalleryWhere)':
    /\bshares\s*:\s*\{\s*some\s*:\s*\{[^}]*\b(?:status|permission|project)\s*:/,
  'Prisma shares that give access (accessShareWhere)':
    /status\s*:\s*'active'(?:\s+as\s+const)?\s*,\s*(?:permission\s*:\s*'write'(?:\s+as\s+const)?\s*,\s*)?project\s*:/,
  'Prisma shares a viewer may see (visibleShareWhere)':
    /\{\s*gallery\s*:\s*\{\s*ownerId\s*:[^}]*\}\s*\}\s*,\s*\{\s*project\s*:|\{\s*project\s*:[^}]*\}\s*,\s*\{\s*gallery\s*:\s*\{\s*ownerId\s*:/,
  'tasks a viewer may see (taskVisibleWhere, visibleTaskSql)':
    /\{\s*creatorId\s*:[^}]*\}\s*,\s*\{\s*assigneeId\s*:|"creatorId"\s*=\s*[^\n]{0,60}\bOR\s+(?:\w+\.)?"assigneeId"\s*=/,
};

/** The copies of a rule in a file's text, by the rule they copy. */
function copiesIn(text: string) {
  return Object.entries(COPIES)
    .filter(([, shape]) => shape.test(text))
    .map(([rule]) => rule);
}

const sources = () =>
  (readdirSync(src, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.startsWith('access/') &&
        !file.startsWith('generated/') &&
        !/(^|\/)testing\.ts$|\.test\.ts$|\.cases\.ts$/.test(file),
    );

describe('each access rule has one home', () => {
  it('no source file outside access/ writes a rule again', () => {
    const found = sources().flatMap((file) =>
      copiesIn(readFileSync(path.join(src, file), 'utf8')).map((rule) => `${file}: ${rule}`),
    );
    expect(found).toEqual([]);
  });

  it('would find each copy the rules replaced', () => {
    const copies = [
      `EXISTS (SELECT 1 FROM "GalleryShare" s JOIN "ProjectMember" m ON m."projectId" = s."projectId"
         WHERE s."galleryId" = g.id AND s.status = 'active' AND m."userId" = $1)`,
      `FROM "GalleryShare" s
         JOIN "ProjectMember" m ON m."projectId" = s."projectId" AND m."userId" = \${userId}::uuid`,
      `SELECT 1 FROM "ProjectMember" theirs JOIN "ProjectMember" mine ON mine."projectId" = theirs."projectId"`,
      `{ OR: [{ id: viewerId }, { memberships: { some: { project: projectMemberWhere(viewerId) } } }] }`,
      `where: { OR: [{ ownerId: userId }, { members: { some: { userId } } }] },`,
      `shares: {
        some: { status: 'active', OR: [{ project: projectMemberWhere(userId) }, { gallery: { ownerId: userId } }] },
      },`,
      `where: { status: 'active' as const, project: projectMemberWhere(viewerId) },`,
      `where: { status: 'active', permission: 'write', project: projectMemberWhere(ctx.viewer.id) },`,
      `where: { OR: [{ gallery: { ownerId: ctx.viewer.id } }, { project: projectMemberWhere(ctx.viewer.id) }] },`,
      `where: { OR: [{ creatorId: userId }, { assigneeId: userId }] },`,
      `FROM "Task" WHERE "creatorId" = \${userId}::uuid OR "assigneeId" = \${userId}::uuid) t`,
    ];
    for (const copy of copies) expect({ copy, found: copiesIn(copy).length > 0 }).toEqual({ copy, found: true });
  });
});

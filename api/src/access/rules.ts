// Who may see and change what. Every list, lookup and statement goes through these, so a rule
// changes in one place: each is written once as Prisma's `where` and, where statements Prisma
// cannot express need it (search, the gallery cards page, the dashboard), once as an SQL builder.
// access.test.ts holds every form of a rule to the same rows for every kind of viewer, and
// home.test.ts keeps copies from being written outside this folder.

export { fileAccessWhere, galleryFilesSql, mayChangeFile, readableFileSql } from './files.ts';
export { folderAccessSql, folderAccessWhere, seesFolderOf } from './folders.ts';
export {
  type AccessMode,
  accessShareWhere,
  galleryAccessSql,
  galleryAccessWhere,
  galleryReaders,
  readableGallerySql,
  sharedGallerySql,
  sharedGalleryWhere,
  visibleShareWhere,
} from './galleries.ts';
export { MANAGING_ROLE, managedProjectWhere, managesMembers, projectMemberWhere } from './projects.ts';
export { type SqlViewer, viewerMark, viewerValue } from './sql.ts';
export { taskPermissions, taskVisibleWhere, visibleTaskSql } from './tasks.ts';
export { visibleUserSql, visibleUserSqlOf, visibleUsersWhere } from './users.ts';

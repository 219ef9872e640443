import { Prisma } from '../generated/prisma/client.ts';
import { galleryAccessSql, galleryAccessWhere, type AccessMode } from './galleries.ts';
import { sqlAlias, viewerValue } from './sql.ts';

/**
 * Files the user may read: their own, public ones, and those in a gallery they may read.
 * Writing a file (rename, tags, delete) stays with its owner.
 */
export function fileAccessWhere(userId: string, mode: AccessMode = 'read'): Prisma.FileWhereInput {
  if (mode === 'write') return { ownerId: userId };
  return {
    OR: [
      { ownerId: userId },
      { isPublic: true },
      { galleryItems: { some: { gallery: galleryAccessWhere(userId, 'read') } } },
    ],
  };
}

/** Whether the viewer may change a file already read: fileAccessWhere(…, 'write') for one row. */
export function mayChangeFile(viewerId: string, file: { ownerId: string }) {
  return file.ownerId === viewerId;
}

/** The ids (column id) of the files in galleries the user may read: the gallery part of readableFileSql. */
export function galleryFilesSql(userId: string) {
  return Prisma.sql`SELECT DISTINCT gi."fileId" AS id FROM "GalleryItem" gi JOIN "Gallery" g ON g.id = gi."galleryId"
      WHERE ${galleryAccessSql('g', viewerValue(userId))}`;
}

/**
 * The files a user may read (fileAccessWhere), as an SQL condition on the file row `alias`. A
 * statement that checks many rows may collect galleryFilesSql once, as the relation `galleryFiles`.
 */
export function readableFileSql(userId: string, alias = 'f', galleryFiles?: string) {
  const f = sqlAlias(`"${alias}"`);
  const inGallery = galleryFiles
    ? Prisma.sql`${f}.id IN (SELECT id FROM ${sqlAlias(galleryFiles)})`
    : Prisma.sql`EXISTS (
      SELECT 1 FROM "GalleryItem" gi JOIN "Gallery" g ON g.id = gi."galleryId"
      WHERE gi."fileId" = ${f}.id AND ${galleryAccessSql('g', viewerValue(userId))}
    )`;
  return Prisma.sql`(${f}."ownerId" = ${userId}::uuid OR ${f}."isPublic" OR ${inGallery})`;
}

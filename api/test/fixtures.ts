import { randomBytes, createHash } from 'node:crypto';
import { objectPathFor } from '../src/storage/uploads.ts';
import type { TestApp } from './harness.ts';

/**
 * A finished upload owned by `userId`, as the storage layer records it once the bytes arrived:
 * for tests of file records that do not exercise the byte transfer itself.
 */
export async function finishedUpload(
  app: TestApp,
  userId: string,
  { size = 1024, mimeType = 'image/jpeg', metadata = {} }: { size?: number; mimeType?: string; metadata?: object } = {},
) {
  const upload = await app.database.prisma.upload.create({
    data: {
      userId,
      objectKey: `uploads/pending-${randomBytes(8).toString('hex')}`,
      maxSize: BigInt(size),
      status: 'uploaded',
      size: BigInt(size),
      checksum: createHash('sha256').update(randomBytes(16)).digest('hex'),
      mimeType,
      metadata,
      expiresAt: new Date(Date.now() + 3600_000),
      completedAt: new Date(),
    },
  });
  await app.database.prisma.upload.update({ where: { id: upload.id }, data: { objectKey: `uploads/${upload.id}` } });
  return {
    id: upload.id,
    uploadURL: `http://scoutbase.test${objectPathFor(upload.id)}?token=fixture`,
    objectPath: objectPathFor(upload.id),
  };
}

/** A project `owner` owns with `members` in its crew, written straight to the database. */
export async function crewProject(app: TestApp, name: string, owner: { id: string }, ...members: { id: string }[]) {
  const db = app.database.prisma;
  const project = await db.project.create({ data: { name, ownerId: owner.id } });
  await db.projectMember.createMany({
    data: [
      { projectId: project.id, userId: owner.id, role: 'owner' },
      ...members.map((member) => ({ projectId: project.id, userId: member.id })),
    ],
  });
  return project;
}

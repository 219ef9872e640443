import type { Services } from '../context.ts';
import { type AnalysisDeps, analyzeFile, isAutoTagged } from './analyze.ts';
import { TAG_PHOTO, type TagPhotoJob } from './photo-tagging-job.ts';

/** Tags one photo as its owner would by asking; nothing when it is gone or already tagged. */
export async function tagPhoto(services: Services, deps: AnalysisDeps, fileId: string) {
  const file = await services.db.file.findUnique({
    where: { id: fileId },
    select: { mimeType: true, metadata: true, owner: { select: { id: true, email: true } } },
  });
  if (!file?.mimeType.startsWith('image/') || isAutoTagged(file.metadata)) return;
  const viewer = { id: file.owner.id, email: file.owner.email, sessionId: TAG_PHOTO };
  await analyzeFile(deps, { ...services, viewer }, { fileId });
}

export async function startPhotoTagging(services: Services, deps: AnalysisDeps) {
  await services.jobs.work<TagPhotoJob>(TAG_PHOTO, ({ fileId }) => tagPhoto(services, deps, fileId));
}

import type { Services } from '../context.ts';

/**
 * AI tags for every photo filed from an upload, as a durable job: the upload panel asks for them
 * at once (POST /api/ai/analyze-file) and shows them, but a tab closed or a connection lost
 * before that left the photo untagged for good. The job comes a minute later and tags only a
 * photo nobody tagged yet, so the two never pay for one photo twice.
 */
export const TAG_PHOTO = 'assistant.tag-photo';
const TAG_DELAY_SECONDS = 60;

export interface TagPhotoJob {
  fileId: string;
}

export async function enqueuePhotoTagging(services: Pick<Services, 'jobs'>, fileId: string) {
  await services.jobs.send<TagPhotoJob>(
    TAG_PHOTO,
    { fileId },
    // Claude away or rate-limited: later, more slowly each time.
    { singletonKey: fileId, startAfter: TAG_DELAY_SECONDS, retryLimit: 5, retryDelaySeconds: 60, retryBackoff: true },
  );
}

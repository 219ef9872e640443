// Uploads straight to the S3 bucket (the server's storage/s3-uploads.ts): presigned URLs from the
// server, the bytes PUT to the bucket (a large file in parts, three at a time, a failed part asked
// for again with a fresh URL), then the server completes and checks the upload.
import {
  type DirectUploadResult,
  S3_UPLOADS_URL,
  type S3PartTarget,
  type S3UploadPlan,
  type S3UploadState,
} from '../../../api/src/storage/contract.ts';
import { refusalMessage } from '../lib/refusal.ts';

type Progress = (loaded: number, total: number) => void;
type Request = <T>(method: string, url: string, body?: unknown) => Promise<T>;

/** Thrown with a message the server wrote for people (a refusal: type, size, quota). */
export class S3UploadRefused extends Error {}

const PARALLEL_PARTS = 3;
const ATTEMPTS = 3;

/** PUT without cookies (the bucket is another origin) with upload progress (fetch has none). */
function putToBucket(
  url: string,
  body: Blob,
  contentType: string | null,
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
) {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    // A single PUT is signed for exactly this type; a part carries none.
    if (contentType) xhr.setRequestHeader('content-type', contentType);
    xhr.upload.addEventListener('progress', (event) => onProgress(event.loaded));
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(body.size);
        resolve();
      } else reject(new Error(`${xhr.status}: ${xhr.statusText}`));
    });
    xhr.addEventListener('error', () => reject(new Error('Upload failed')));
    xhr.addEventListener('abort', () => reject(new Error('Upload cancelled')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** A 4xx from our server carries { message } for people; keep its words. */
function refusal(error: unknown): never {
  const message = refusalMessage(error);
  throw message ? new S3UploadRefused(message) : error;
}

export async function s3Upload(
  file: File,
  onProgress: Progress,
  signal: AbortSignal | undefined,
  request: Request,
): Promise<DirectUploadResult> {
  const contentType = /^[\w.+-]+\/[\w.+-]+$/.test(file.type) ? file.type : 'application/octet-stream';
  const plan = await request<S3UploadPlan>('POST', S3_UPLOADS_URL, { size: file.size, contentType }).catch(refusal);
  const sent = new Map<number, number>();
  const report = () =>
    onProgress(
      [...sent.values()].reduce((a, b) => a + b, 0),
      file.size,
    );

  for (let attempt = 1; ; attempt++) {
    try {
      if (plan.put) {
        await putToBucket(
          plan.put.url,
          file,
          plan.put.contentType,
          (n) => {
            sent.set(0, n);
            report();
          },
          signal,
        );
      } else if (plan.multipart) {
        const { partSize, parts } = plan.multipart;
        const queue = [...parts];
        const sendPart = async (part: S3PartTarget) => {
          const start = (part.partNumber - 1) * partSize;
          await putToBucket(
            part.url,
            file.slice(start, start + part.size),
            null,
            (n) => {
              sent.set(part.partNumber, n);
              report();
            },
            signal,
          );
        };
        await Promise.all(
          Array.from({ length: PARALLEL_PARTS }, async () => {
            for (let part = queue.shift(); part; part = queue.shift()) await sendPart(part);
          }),
        );
      }
      break;
    } catch (error) {
      if (signal?.aborted || attempt >= ATTEMPTS) throw error;
      // Whatever arrived whole stays in the bucket; only the rest goes again, with fresh URLs.
      const state = await request<S3UploadState>('GET', `${S3_UPLOADS_URL}/${plan.uploadId}`).catch(refusal);
      if (state.put) plan.put = state.put;
      if (state.multipart) {
        plan.multipart = { partSize: state.multipart.partSize, parts: state.multipart.parts };
        for (const part of state.multipart.parts) sent.delete(part.partNumber);
      }
    }
  }
  return request<DirectUploadResult>('POST', `${S3_UPLOADS_URL}/${plan.uploadId}/complete`).catch(refusal);
}

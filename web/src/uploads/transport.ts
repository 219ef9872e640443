// One file's trip to the server: ask for an upload URL, send the bytes with
// real progress, file them (the caller's record: a new file or a new version), then (images only)
// ask for an AI analysis whose failure is only logged. Large files go resumably over tus when the server offers it; when the server
// keeps files at UploadThing, the browser sends them there directly (@uploadthing/react); with an S3
// bucket, straight to the bucket through presigned URLs (uploads/s3.ts).
import {
  type DirectUploadResult,
  type StorageConfig,
  UPLOAD_BATCH_MAX,
  UPLOADTHING_SLUG,
  type UploadTarget,
  type UploadTargets,
} from '../../../api/src/storage/contract.ts';
import { dataRequest } from '../lib/http.ts';
import { refusalMessage } from '../lib/refusal.ts';
import type { ConflictChoice } from './conflicts.ts';
import { S3UploadRefused, s3Upload } from './s3.ts';

export interface StoredFile {
  id: string;
  name: string;
  objectPath: string;
  mimeType: string;
  size: number;
  /** 2 and up when the upload replaced a file of the same name (it became a new version). */
  version?: number;
}

/** Where and how sent bytes are filed. */
export interface Filing {
  folderId?: string | null;
  /** What the server does if the name is taken in the folder by the time the file is filed. */
  onConflict?: ConflictChoice;
}

/** Bytes sent so far of the file's total. */
type Progress = (loaded: number, total: number) => void;

export interface UploadOptions extends Filing {
  onProgress?: Progress;
  signal?: AbortSignal;
  /** Where this server takes the bytes (a batch's URLs, uploadTargetsFor); else one is asked for. */
  nextTarget?: () => Promise<UploadTarget>;
  /**
   * Files the sent bytes once they have arrived, given the upload URL they went to: a new file
   * (the createFile mutation, uploads/useCreateFile.ts) or a new version of one.
   */
  record: (objectUrl: string, file: File, filing: Filing) => Promise<StoredFile>;
}

// The real senders below; tests put fakes in their place.
export interface Transport {
  request: <T>(method: string, url: string, body?: unknown) => Promise<T>;
  put: typeof putWithProgress;
  resumable?: typeof tusUpload;
  /** Sends the file straight to UploadThing through the server's file route at `endpoint`. */
  direct?: typeof uploadthingUpload;
  /** Sends the file straight to the S3 bucket through presigned URLs (uploads/s3.ts). */
  s3?: typeof s3Upload;
}

/** Files above this go over tus when the server names a tus endpoint (256 KB). */
export const RESUMABLE_THRESHOLD = 256 * 1024;

export class UploadStepError extends Error {}

/** PUT with XMLHttpRequest: fetch cannot report upload progress. */
export function putWithProgress(url: string, file: File, onProgress: Progress, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    if (file.type) xhr.setRequestHeader('content-type', file.type);
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size, file.size);
        resolve();
      } else reject(new Error(`${xhr.status}: ${xhr.responseText || xhr.statusText}`));
    };
    xhr.onerror = () => reject(new Error('Upload failed'));
    xhr.onabort = () => reject(new Error('Upload cancelled'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** Resumable upload through tus-js-client; loaded lazily so small uploads never pay for it. */
export async function tusUpload(
  endpoint: string,
  file: File,
  onProgress: Progress,
  signal?: AbortSignal,
  uploadURL?: string,
): Promise<string> {
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      // The server ties the tus upload to the upload URL it handed out (also in the endpoint's query).
      metadata: {
        filename: file.name,
        filetype: file.type || 'application/octet-stream',
        ...(uploadURL ? { uploadURL } : {}),
      },
      onProgress: (loaded, total) => onProgress(loaded, total),
      // A refusal reads like any other answer of ours ("415: {"message":…}"), so step() keeps its words.
      onError: (error) => {
        const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null })
          .originalResponse;
        reject(response ? new Error(`${response.getStatus()}: ${response.getBody()}`) : error);
      },
      onSuccess: () => resolve(upload.url ?? endpoint),
      onBeforeRequest: (req) => {
        const xhr = req.getUnderlyingObject() as XMLHttpRequest | undefined;
        if (xhr && 'withCredentials' in xhr) xhr.withCredentials = true;
      },
    });
    signal?.addEventListener('abort', () => void upload.abort(), { once: true });
    // A file the browser already started sending continues where it stopped.
    upload.findPreviousUploads().then((previous) => {
      if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
      upload.start();
    }, reject);
  });
}

/** Direct upload with UploadThing's React helpers; loaded lazily so the local backend never pays for it. */
export async function uploadthingUpload(
  endpoint: string,
  file: File,
  onProgress: Progress,
  signal?: AbortSignal,
): Promise<DirectUploadResult> {
  const { generateReactHelpers } = await import('@uploadthing/react');
  const { uploadFiles } = generateReactHelpers({ url: endpoint });
  let sent: { serverData: unknown }[];
  try {
    sent = await uploadFiles(UPLOADTHING_SLUG, {
      files: [file],
      signal,
      onUploadProgress: ({ loaded }) => onProgress(loaded, file.size),
    });
  } catch (error) {
    // The file route's own refusals (size, type, quota, session) carry a message for people.
    const code = (error as { code?: string }).code;
    if (code === 'TOO_LARGE' || code === 'BAD_REQUEST' || code === 'FORBIDDEN') {
      throw new UploadStepError((error as Error).message);
    }
    throw error;
  }
  const answer = sent[0]?.serverData as DirectUploadResult | null | undefined;
  if (!answer) throw new Error('UploadThing did not report what the server made of the file');
  return answer;
}

export const browserTransport: Transport = {
  request: dataRequest,
  put: putWithProgress,
  resumable: tusUpload,
  direct: uploadthingUpload,
  s3: s3Upload,
};

async function step<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // A refusal the server explained keeps its own words (the words S3 uploads keep too).
    if (error instanceof UploadStepError) throw error;
    const refused = refusalMessage(error);
    if (refused) throw new UploadStepError(refused);
    console.error(message, error);
    throw new UploadStepError(message);
  }
}

const storageConfigs = new WeakMap<Transport, Promise<StorageConfig>>();

/** Asked once per transport (a page load): the backend does not change while the app runs. */
function storageConfig(transport: Transport) {
  let config = storageConfigs.get(transport);
  if (!config) {
    config = transport.request<StorageConfig>('GET', '/api/storage/config');
    // A failed answer is asked again next time rather than remembered.
    config.catch(() => storageConfigs.delete(transport));
    storageConfigs.set(transport, config);
  }
  return config;
}

const oneTarget = (transport: Transport) => transport.request<UploadTarget>('POST', '/api/objects/upload', {});

/** A URL that expires sooner than this is not started on: its bytes might not make it in time. */
const FRESH_FOR_MS = 60_000;

/**
 * Upload URLs for a batch of `count` files sent to this server: asked for in one request when the
 * first file needs one (POST /api/objects/uploads?count=n), then handed out one per file. A file
 * asks for its own when the batch's have run out, are close to expiring (a long batch on a slow
 * line), or could not be had.
 */
export function uploadTargetsFor(count: number, transport: Transport): () => Promise<UploadTarget> {
  if (count <= 1) return () => oneTarget(transport);
  let batch: Promise<UploadTarget[]> | null = null;
  return async () => {
    batch ??= transport
      .request<UploadTargets>('POST', `/api/objects/uploads?count=${Math.min(count, UPLOAD_BATCH_MAX)}`)
      .then(
        (answer) => answer.uploads,
        (error: unknown) => {
          console.warn('Could not get upload URLs for the batch; asking file by file', error);
          return [];
        },
      );
    const targets = await batch;
    for (let next = targets.shift(); next; next = targets.shift()) {
      if (Date.parse(next.expiresAt) - Date.now() > FRESH_FOR_MS) return next;
    }
    return oneTarget(transport);
  };
}

/** Sends the bytes; answers the upload URL that POST /api/files files. */
async function sendBytes(file: File, options: UploadOptions, transport: Transport): Promise<string> {
  const onProgress = options.onProgress ?? (() => {});
  const config = await step(() => storageConfig(transport), 'Failed to get upload URL');
  if (config.uploadthingUrl && transport.direct) {
    const direct = transport.direct;
    const endpoint = config.uploadthingUrl;
    const result = await step(() => direct(endpoint, file, onProgress, options.signal), 'Upload failed');
    if (!result.ok) throw new UploadStepError(result.message);
    return result.uploadURL;
  }
  if (config.backend === 's3' && transport.s3) {
    const s3 = transport.s3;
    const result = await step(
      () =>
        s3(file, onProgress, options.signal, transport.request).catch((error: unknown) => {
          throw error instanceof S3UploadRefused ? new UploadStepError(error.message) : error;
        }),
      'Upload failed',
    );
    if (!result.ok) throw new UploadStepError(result.message);
    return result.uploadURL;
  }
  const target = await step(options.nextTarget ?? (() => oneTarget(transport)), 'Failed to get upload URL');
  await step(async () => {
    if (target.tusEndpoint && transport.resumable && file.size > RESUMABLE_THRESHOLD) {
      await transport.resumable(target.tusEndpoint, file, onProgress, options.signal, target.uploadURL);
    } else {
      await transport.put(target.uploadURL, file, onProgress, options.signal);
    }
  }, 'Upload failed');
  return target.uploadURL;
}

export async function uploadFile(
  file: File,
  options: UploadOptions,
  transport = browserTransport,
): Promise<StoredFile> {
  const objectUrl = await sendBytes(file, options, transport);
  const { folderId, onConflict } = options;
  return step(() => options.record(objectUrl, file, { folderId, onConflict }), 'Failed to create file record');
}

/** Asks for AI tags; a failure is only logged and the upload still completes. */
export async function analyzeFile(stored: StoredFile, transport = browserTransport): Promise<unknown> {
  try {
    return await transport.request('POST', '/api/ai/analyze-file', { fileId: stored.id, fileUrl: stored.objectPath });
  } catch (error) {
    console.warn('AI analysis failed', error);
    return undefined;
  }
}

// One file's trip to the server (SPEC.md section 7): ask for an upload URL, send the bytes with
// real progress, create the file record, then (images only) ask for an AI analysis whose failure
// is only logged. Large files go resumably over tus when the server offers it.
import { dataRequest } from '../lib/http.ts';

export interface StoredFile {
  id: string;
  name: string;
  objectPath: string;
  mimeType: string;
  size: number;
}

export interface UploadOptions {
  folderId?: string | null;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  /**
   * Files the sent bytes once they have arrived, given the upload URL they went to. Without it they
   * become a new file record (POST /api/files); 'Upload new version' files them as a version instead.
   */
  record?: (objectUrl: string, file: File) => Promise<StoredFile>;
}

export interface Transport {
  request: <T>(method: string, url: string, body?: unknown) => Promise<T>;
  put: (
    url: string,
    file: File,
    onProgress: (loaded: number, total: number) => void,
    signal?: AbortSignal,
  ) => Promise<void>;
  resumable?: (
    endpoint: string,
    file: File,
    onProgress: (loaded: number, total: number) => void,
    signal?: AbortSignal,
    uploadURL?: string,
  ) => Promise<string>;
}

/** Files above this go over tus when the server names a tus endpoint (SPEC.md section 9: 256 KB). */
export const RESUMABLE_THRESHOLD = 256 * 1024;

export class UploadStepError extends Error {}

/** PUT with XMLHttpRequest: fetch cannot report upload progress. */
export function putWithProgress(
  url: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
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
  onProgress: (loaded: number, total: number) => void,
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
      onError: (error) => reject(error),
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

export const browserTransport: Transport = { request: dataRequest, put: putWithProgress, resumable: tusUpload };

async function step<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    console.error(message, error);
    throw new UploadStepError(message);
  }
}

interface UploadUrl {
  uploadURL: string;
  /** Present when the server accepts resumable uploads for this upload. */
  tusEndpoint?: string;
}

export async function uploadFile(
  file: File,
  options: UploadOptions = {},
  transport = browserTransport,
): Promise<StoredFile> {
  const onProgress = options.onProgress ?? (() => {});
  const target = await step(
    () => transport.request<UploadUrl>('POST', '/api/objects/upload', {}),
    'Failed to get upload URL',
  );
  await step(async () => {
    if (target.tusEndpoint && transport.resumable && file.size > RESUMABLE_THRESHOLD) {
      await transport.resumable(target.tusEndpoint, file, onProgress, options.signal, target.uploadURL);
    } else {
      await transport.put(target.uploadURL, file, onProgress, options.signal);
    }
  }, 'Upload failed');
  const objectUrl = target.uploadURL;
  const { record } = options;
  if (record) return step(() => record(objectUrl, file), 'Failed to create file record');
  return step(
    () =>
      transport.request<StoredFile>('POST', '/api/files', {
        name: file.name,
        originalName: file.name,
        mimeType: file.type || 'application/octet-stream',
        size: file.size,
        objectUrl,
        folderId: options.folderId ?? null,
        isPublic: false,
        tags: [],
        metadata: { uploadedAt: new Date().toISOString() },
      }),
    'Failed to create file record',
  );
}

/** Asks for AI tags; a failure is only logged and the upload still completes (SPEC.md section 8). */
export async function analyzeFile(stored: StoredFile, transport = browserTransport): Promise<unknown> {
  try {
    return await transport.request('POST', '/api/ai/analyze-file', { fileId: stored.id, fileUrl: stored.objectPath });
  } catch (error) {
    console.warn('AI analysis failed', error);
    return undefined;
  }
}

// The storage REST data as it travels: the API answers with these shapes and the web app's upload
// transport reads them (web/src/uploads/transport.ts imports these types), so the two cannot drift
// apart. Nothing here imports anything that runs: the web's compiler reads this file.

/** The one UploadThing file route: a workspace file, checked like any other upload. */
export const UPLOADTHING_SLUG = 'workspaceFile';

/** GET /api/storage/config: how uploads travel, to this server or straight to UploadThing or the S3 bucket. */
export interface StorageConfig {
  backend: 'local' | 'uploadthing' | 's3';
  /** Where the browser asks for UploadThing upload URLs; null when files stay on this server. */
  uploadthingUrl: string | null;
  maxUploadSize: number;
}

/** POST /api/objects/upload: where to send one upload's bytes. */
export interface UploadTarget {
  uploadURL: string;
  /** Present when the server accepts resumable (tus) uploads for this upload. */
  tusEndpoint?: string;
  maxSize: number;
  expiresAt: string;
}

/** POST /api/objects/uploads?count=n: one target for each file of a batch (at most UPLOAD_BATCH_MAX), asked at once. */
export interface UploadTargets {
  uploads: UploadTarget[];
}

/** The most files one batch asks upload URLs for: the upload panel's own limit of files at a time. */
export const UPLOAD_BATCH_MAX = 10;

/** What the browser gets back once UploadThing has the bytes and the server has checked them. */
export type DirectUploadResult =
  | { ok: true; uploadURL: string; objectPath: string; uploadId: string; size: number; mimeType: string }
  | { ok: false; status: number; message: string };

/** Where the browser asks for presigned S3 URLs (storage/s3-uploads.ts). */
export const S3_UPLOADS_URL = '/api/uploads/s3';

/** One part of a multipart upload, with the presigned URL its bytes go to by PUT. */
export interface S3PartTarget {
  partNumber: number;
  size: number;
  url: string;
}

/** POST /api/uploads/s3 { size, contentType }: where the bytes go, straight to the bucket. */
export interface S3UploadPlan {
  /** What POST /api/files files once the upload is complete. */
  uploadURL: string;
  uploadId: string;
  expiresAt: string;
  /** A file up to one part: a single PUT with exactly this Content-Type. */
  put?: { url: string; contentType: string };
  /** A larger file: PUT each part (in any order, several at a time), then POST …/complete. */
  multipart?: { partSize: number; parts: S3PartTarget[] };
}

/** GET /api/uploads/s3/<id>: resuming after an interruption, fresh URLs for what is still missing. */
export interface S3UploadState {
  put?: { url: string; contentType: string };
  multipart?: { partSize: number; done: number[]; parts: S3PartTarget[] };
}

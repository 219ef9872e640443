// The storage REST data as it travels: the API answers with these shapes and the web app's upload
// transport reads them (web/src/uploads/transport.ts imports these types), so the two cannot drift
// apart. Nothing here imports anything that runs: the web's compiler reads this file.

/** The one UploadThing file route: a workspace file, checked like any other upload. */
export const UPLOADTHING_SLUG = 'workspaceFile';

/** GET /api/storage/config: how uploads travel, to this server or straight to UploadThing. */
export interface StorageConfig {
  backend: 'local' | 'uploadthing';
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

/** What the browser gets back once UploadThing has the bytes and the server has checked them. */
export type DirectUploadResult =
  | { ok: true; uploadURL: string; objectPath: string; uploadId: string; size: number; mimeType: string }
  | { ok: false; status: number; message: string };

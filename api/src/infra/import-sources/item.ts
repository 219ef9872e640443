// Imports nothing: the web app reads this type too (api/src/imports/contract.ts).

/** What the import dialog lists: a folder to open, or a file to choose. */
export interface ImportItem {
  /** The source's own id: a path inside the import folder, a Drive file id, a Dropbox id. */
  id: string;
  name: string;
  type: 'folder' | 'image' | 'file';
  /** Bytes; null for folders and when the source does not say. */
  size: number | null;
  /** A URL on this server that shows a small picture of an image, when the source has one. */
  thumbnail?: string;
  modifiedAt: string | null;
}

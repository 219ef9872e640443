import { encodeGlobalId as encodeGlobalID } from './ids.ts';

// Addresses in the web app that the API writes (notification links, e-mails). The web app reads
// its GraphQL ids from its URLs, so every id in an address is the Relay global id of the record,
// the same id the screens get from GraphQL (web/src/lib/globalId.ts is the web side of this rule).

export const appLink = {
  gallery: (galleryId: string) => `/galleries/${encodeURIComponent(encodeGlobalID('Gallery', galleryId))}`,
  folder: (folderId: string) => `/files?folder=${encodeURIComponent(encodeGlobalID('Folder', folderId))}`,
  task: (taskId: string) => `/tasks?task=${encodeURIComponent(encodeGlobalID('Task', taskId))}`,
};

// The upload limits and drop-zone messages, in one place so the
// upload panel, the gallery drop target and the tests agree.

export const MAX_FILES = 10;
export const MAX_FILE_SIZE = 50 * 1024 * 1024;
/** Progress shown while an image is being analysed. */
export const ANALYZING_PROGRESS = 90;
/** Share of the bar the byte transfer fills; the file record and analysis take the rest. */
export const TRANSFER_SHARE = 85;

/** react-dropzone's `accept`: the spec's types by MIME type, with their extensions. */
export const ACCEPT: Record<string, string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'video/mp4': ['.mp4'],
  'video/quicktime': ['.mov'],
  'video/x-msvideo': ['.avi'],
  'video/x-matroska': ['.mkv'],
  'application/pdf': ['.pdf'],
  'text/plain': ['.txt'],
  'text/markdown': ['.md'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
};

export const ACCEPTED_EXTENSIONS = Object.values(ACCEPT).flat();

/** A gallery holds photos and videos: what its Upload Photos accepts (ACCEPT's image and video types). */
export const GALLERY_ACCEPT: Record<string, string[]> = Object.fromEntries(
  Object.entries(ACCEPT).filter(([type]) => /^(image|video)\//.test(type)),
);

export interface Rejection {
  name: string;
  messages: string[];
}

/** The spec's wording for a drop-zone error code (react-dropzone's codes). */
export function rejectionMessage(code: string, fallback = 'Upload failed', accept = ACCEPT): string {
  switch (code) {
    case 'file-invalid-type':
      return `File type must be one of ${Object.values(accept).flat().join(', ')}`;
    case 'file-too-large':
      return `File is larger than ${MAX_FILE_SIZE} bytes`;
    case 'file-too-small':
      return 'File is smaller than 1 bytes';
    case 'too-many-files':
      return 'Too many files';
    default:
      return fallback;
  }
}

function extensionOf(name: string) {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/** Whether a file's name or type is one the spec accepts (browsers leave some types empty). */
export function isAcceptedType(file: { name: string; type: string }) {
  const extension = extensionOf(file.name);
  if (file.type && ACCEPT[file.type]) return true;
  return ACCEPTED_EXTENSIONS.includes(extension);
}

/**
 * Splits a batch into the files to upload and the rejected ones with the spec's messages, given
 * how many uploads are already in the list (the limit is 10 in total, not per drop).
 */
export function checkFiles<T extends { name: string; type: string; size: number }>(
  files: readonly T[],
  alreadyQueued = 0,
): { accepted: T[]; rejected: Rejection[]; tooMany: boolean } {
  const tooMany = alreadyQueued + files.length > MAX_FILES;
  if (tooMany) {
    return {
      accepted: [],
      rejected: files.map((file) => ({ name: file.name, messages: [rejectionMessage('too-many-files')] })),
      tooMany,
    };
  }
  const accepted: T[] = [];
  const rejected: Rejection[] = [];
  for (const file of files) {
    const messages: string[] = [];
    if (!isAcceptedType(file)) messages.push(rejectionMessage('file-invalid-type'));
    if (file.size > MAX_FILE_SIZE) messages.push(rejectionMessage('file-too-large'));
    if (messages.length) rejected.push({ name: file.name, messages });
    else accepted.push(file);
  }
  return { accepted, rejected, tooMany };
}

export function isImage(file: { type: string; name: string }) {
  if (file.type) return file.type.startsWith('image/');
  return ['.png', '.jpg', '.jpeg', '.gif', '.webp'].includes(extensionOf(file.name));
}

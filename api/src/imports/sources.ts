import { DomainError } from '../shared/errors.ts';

import type { SourceId } from './contract.ts';

export { SOURCE_IDS, type SourceId } from './contract.ts';

export const SOURCE_NAMES: Record<SourceId, string> = {
  local: 'Server folder',
  'google-drive': 'Google Drive',
  dropbox: 'Dropbox',
};

/** The source needs an account link (OAuth) the person has not made, or that has expired. */
export class NotConnectedError extends DomainError {
  override readonly status = 409;
  override readonly code = 'NOT_CONNECTED';
}

export function thumbnailUrl(source: SourceId, id: string) {
  return `/api/imports/${source}/thumbnail?id=${encodeURIComponent(id)}`;
}

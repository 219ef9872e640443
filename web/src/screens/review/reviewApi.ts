// The public review surface (api/src/reviews/rest.ts): plain fetch, no session and no Relay, so
// the page someone opens from a text message stays small.

export type PickValue = 'yes' | 'no' | 'maybe';

export interface ReviewPhoto {
  id: string;
  name: string;
  mimeType: string;
  url: string;
  thumbnailUrl: string | null;
  /** The grid thumbnail at twice the pixels (for high-density screens), when the server has made it. */
  thumbnail2xUrl: string | null;
  previewUrl: string | null;
  width: number | null;
  height: number | null;
  takenAt: string | null;
  location: { latitude: number; longitude: number } | null;
}

export interface ReviewComment {
  id: string;
  fileId: string;
  name: string;
  body: string;
  createdAt: string;
}

export interface ReviewPick {
  fileId: string;
  name: string;
  pick: PickValue;
  updatedAt: string;
}

export interface ReviewGallery {
  name: string;
  description: string | null;
  projectName: string | null;
  movieTvShow: string | null;
  location: string | null;
  label: string | null;
  allowDownload: boolean;
  photoCount: number;
}

export interface ReviewData {
  gallery: ReviewGallery;
  /** Where map tiles come from (the server's MAP_TILE_URL). */
  map: { tileUrl: string; attribution: string };
  photos: ReviewPhoto[];
  comments: ReviewComment[];
  picks: ReviewPick[];
}

export type ReviewLoad =
  | { status: 'ready'; data: ReviewData }
  | { status: 'locked'; message: string }
  | { status: 'gone' }
  | { status: 'error'; message: string };

const FAILED = 'Something went wrong. Please try again.';

/** The link's own path: a token is opaque, but it goes into a URL. */
export function reviewPath(token: string, rest = '') {
  return `/api/review/${encodeURIComponent(token)}${rest}`;
}

async function messageOf(response: Response, fallback: string) {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' && body.message ? body.message : fallback;
  } catch {
    return fallback;
  }
}

export async function loadReview(token: string): Promise<ReviewLoad> {
  let response: Response;
  try {
    response = await fetch(reviewPath(token), { credentials: 'same-origin' });
  } catch {
    return { status: 'error', message: 'Could not reach the server. Check your connection and try again.' };
  }
  if (response.status === 404) return { status: 'gone' };
  if (response.status === 401) {
    return { status: 'locked', message: await messageOf(response, 'This review link needs a password.') };
  }
  if (!response.ok) return { status: 'error', message: await messageOf(response, FAILED) };
  return { status: 'ready', data: (await response.json()) as ReviewData };
}

/** Thrown when the link stopped working in the middle of a visit (revoked, expired). */
export class ReviewGoneError extends Error {
  constructor() {
    super('This review link is no longer available.');
  }
}

async function send<T>(token: string, method: string, rest: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(reviewPath(token, rest), {
      method,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new Error('Could not reach the server. Check your connection and try again.');
  }
  if (response.status === 404 && rest !== '/unlock') throw new ReviewGoneError();
  if (!response.ok) throw new Error(await messageOf(response, FAILED));
  return (await response.json()) as T;
}

export function unlockReview(token: string, password: string) {
  return send<{ success: boolean }>(token, 'POST', '/unlock', { password });
}

export function addReviewComment(token: string, input: { fileId: string; name: string; body: string }) {
  return send<ReviewComment>(token, 'POST', '/comments', input);
}

export function setReviewPick(token: string, fileId: string, input: { name: string; pick: PickValue }) {
  return send<ReviewPick>(token, 'PUT', `/picks/${encodeURIComponent(fileId)}`, input);
}

/**
 * Listens on the link's own live channel (server-sent events, only this link's events) and calls
 * `onEnded` once the link is revoked or expired. A dropped connection reconnects by itself; a
 * refused one (the link ended meanwhile) is checked with the page's own read. Returns the stop function.
 */
export function watchReviewLink(token: string, onEnded: () => void): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(reviewPath(token, '/events'));
  let stopped = false;
  const end = () => {
    if (stopped) return;
    stopped = true;
    source.close();
    onEnded();
  };
  source.addEventListener('ended', end);
  source.addEventListener('error', () => {
    // EventSource retries network drops itself; an HTTP refusal closes it for good.
    if (stopped || source.readyState !== EventSource.CLOSED) return;
    void loadReview(token).then((answer) => {
      if (answer.status === 'gone') end();
    });
  });
  return () => {
    stopped = true;
    source.close();
  };
}

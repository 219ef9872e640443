import { toast } from '../ui/toast.tsx';
import { handledAsUnauthorized, isUnauthorizedError } from './unauthorized.ts';

// The spec's client contract: every call sends the session cookie;
// a response that is not ok becomes an Error "status: response text".

export async function errorFromResponse(response: Response): Promise<Error> {
  const text = (await response.text()) || response.statusText;
  return new Error(`${response.status}: ${text}`);
}

/** The server's message of a call that failed with errorFromResponse's error, or `fallback`. */
export function failureMessage(error: unknown, fallback: string) {
  const text = error instanceof Error ? error.message.replace(/^\d+: /, '') : '';
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  } catch {}
  return fallback;
}

/** From a catch: a toast `title` with the server's message, unless the session is gone (the sign-in says so). */
export function toastFailure(error: unknown, title: string) {
  if (isUnauthorizedError(error)) return;
  toast({ title, description: failureMessage(error, 'Please try again.'), variant: 'destructive' });
}

/** Calls an /api path with JSON in and out, throwing errorFromResponse on failure. */
export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await errorFromResponse(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** apiRequest for data calls: a 401 raises the logged-out toast and goes to sign-in. */
export async function dataRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  try {
    return await apiRequest<T>(method, url, body);
  } catch (error) {
    handledAsUnauthorized(error);
    throw error;
  }
}

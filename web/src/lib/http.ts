import { handledAsUnauthorized } from './unauthorized.ts';

// The spec's client contract: every call sends the session cookie;
// a response that is not ok becomes an Error "status: response text".

export async function errorFromResponse(response: Response): Promise<Error> {
  const text = (await response.text()) || response.statusText;
  return new Error(`${response.status}: ${text}`);
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

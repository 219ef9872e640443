import { errorFromResponse } from '../lib/http.ts';

/** Starts sign-in in the browser (SPEC.md section 7: navigation to /api/login). */
export function goToSignIn(callbackUrl = '/') {
  window.location.assign(`/api/login?callbackUrl=${encodeURIComponent(callbackUrl)}`);
}

/**
 * Where to go after signing in: a path of this site, never another site (an open redirect would let
 * a link to our sign-in page send people on to a look-alike). Auth.js may hand over a full URL of
 * this origin; the sign-in pages themselves lead nowhere.
 */
export function safeCallbackUrl(raw: string | null | undefined): string {
  if (!raw) return '/';
  let url: URL;
  try {
    url = new URL(raw, window.location.origin);
  } catch {
    return '/';
  }
  if (url.origin !== window.location.origin) return '/';
  if (url.pathname === '/signin' || url.pathname === '/signup') return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The server's `message`, or the status and text when it sent none. */
async function messageOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  } catch {}
  return (await errorFromResponse(new Response(text, { status: response.status }))).message;
}

/** Creates a local account; throws with the server's message (the address is taken, sign-up is off…). */
export async function signUp(input: { name: string; email: string; password: string }) {
  const response = await fetch('/api/auth/signup', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw new Error(await messageOf(response));
}

async function csrfToken(): Promise<string> {
  const response = await fetch('/api/auth/csrf', { credentials: 'include' });
  if (!response.ok) throw await errorFromResponse(response);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/** The sign-in methods the server offers (Auth.js's providers: credentials, and google when configured). */
export async function signInProviders(): Promise<string[]> {
  const response = await fetch('/api/auth/providers', { credentials: 'include' });
  if (!response.ok) throw await errorFromResponse(response);
  return Object.keys((await response.json()) as Record<string, unknown>);
}

/** Why Auth.js sent someone back to the sign-in page, in words (its `error` and `code` parameters). */
export function signInErrorMessage(error: string | null, code: string | null): string | null {
  if (!error) return null;
  if (error === 'CredentialsSignin') {
    const locked = /^too_many_attempts:(\d+)$/.exec(code ?? '');
    if (locked) return `Too many failed sign-in attempts. Try again in ${waitInWords(Number(locked[1]))}.`;
    return 'Wrong email or password.';
  }
  if (error === 'Configuration') return 'Sign-in is not available right now. Please try again later.';
  // AccessDenied (an unverified Google address), OAuthCallbackError, OAuthSignin…
  return 'Failed to sign in with Google';
}

function waitInWords(seconds: number): string {
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/**
 * Signs in with e-mail and password through Auth.js's credentials flow. Auth.js answers with the
 * next address instead of a redirect (X-Auth-Return-Redirect), so a failure stays on the page with
 * what was typed; the session cookie comes with the answer like with any sign-in. Returns the
 * error in words, or null while the browser goes on to `callbackUrl`.
 */
export async function signInWithPassword(email: string, password: string, callbackUrl = '/'): Promise<string | null> {
  const response = await fetch('/api/auth/callback/credentials', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
    body: new URLSearchParams({ csrfToken: await csrfToken(), email, password, callbackUrl }),
  });
  // The address's own rate limit answers before Auth.js does, with its message.
  if (!response.ok) return messageOf(response);
  const next = new URL(((await response.json()) as { url: string }).url, window.location.origin);
  const error = signInErrorMessage(next.searchParams.get('error'), next.searchParams.get('code'));
  if (error) return error;
  window.location.assign(safeCallbackUrl(next.href));
  return null;
}

/**
 * Starts Google's sign-in: a real form post with the CSRF token, because the browser must follow
 * Auth.js's redirect to Google and back.
 */
export async function signInWithGoogle(callbackUrl: string) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/api/auth/signin/google';
  form.hidden = true;
  for (const [name, value] of Object.entries({ csrfToken: await csrfToken(), callbackUrl })) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

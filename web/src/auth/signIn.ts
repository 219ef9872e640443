import { errorFromResponse } from '../lib/http.ts';

/** Starts sign-in in the browser (navigation to /api/login). */
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

/**
 * Asks for a local account; throws with the server's message (a bad field, sign-up is off…). The
 * answer is the same whether or not the address already had one: check your e-mail.
 */
export async function signUp(input: { name: string; email: string; password: string }) {
  const response = await fetch('/api/auth/signup', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw new Error(await messageOf(response));
  return (await response.json()) as { message: string; email: string };
}

async function csrfToken(): Promise<string> {
  const response = await fetch('/api/auth/csrf', { credentials: 'include' });
  if (!response.ok) throw await errorFromResponse(response);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/** The sign-in methods the server offers (Auth.js's providers: credentials, and google when configured). */
export async function signInProviders(): Promise<string[]> {
  return (await listedProviders()).map((p) => p.id);
}

/** A way to sign in besides the password: Google, or the company's own OpenID Connect provider. */
export interface IdentityProvider {
  id: string;
  /** What its button says: "Sign in with {name}" (OIDC_NAME for the OpenID Connect one). */
  name: string;
}

async function listedProviders(): Promise<(IdentityProvider & { type: string })[]> {
  const response = await fetch('/api/auth/providers', { credentials: 'include' });
  if (!response.ok) throw await errorFromResponse(response);
  const listed = (await response.json()) as Record<string, { id?: string; name?: string; type?: string }>;
  return Object.entries(listed).map(([id, p]) => ({ id, name: p.name ?? id, type: p.type ?? '' }));
}

/** Exactly the identity providers the server has configured (none, Google, OpenID Connect, both). */
export async function identityProviders(): Promise<IdentityProvider[]> {
  return (await listedProviders()).filter((p) => p.type !== 'credentials').map(({ id, name }) => ({ id, name }));
}

// Which provider the person went to, so a failure coming back names it.
const CHOSEN_PROVIDER = 'scoutbase.signin-provider';

/** The provider this tab last went to sign in with, if any. */
export function chosenProvider(): string | null {
  try {
    return window.sessionStorage.getItem(CHOSEN_PROVIDER);
  } catch {
    return null;
  }
}

/** Whether Auth.js's `error` comes from an identity provider's sign-in (not the password form's). */
export function isProviderError(error: string | null, code: string | null): boolean {
  return !!error && error !== 'CredentialsSignin' && error !== 'Configuration' && code !== 'account_disabled';
}

export const ACCOUNT_DISABLED = 'This account is disabled. Ask an administrator.';

/** Why Auth.js sent someone back to the sign-in page, in words (its `error` and `code` parameters). */
export function signInErrorMessage(
  error: string | null,
  code: string | null,
  /** The identity provider the person went to, named in its failure. */
  provider?: string | null,
): string | null {
  if (!error) return null;
  // Any provider: said only once the person proved who they are (the password was right).
  if (code === 'account_disabled') return ACCOUNT_DISABLED;
  if (error === 'CredentialsSignin') {
    const locked = /^too_many_attempts:(\d+)$/.exec(code ?? '');
    if (locked) return `Too many failed sign-in attempts. Try again in ${waitInWords(Number(locked[1]))}.`;
    if (code === 'two_factor_required') return 'Enter the 6-digit code from your authenticator app.';
    if (code === 'two_factor_invalid') {
      return 'That code is not right. Enter the newest code from your app, or a recovery code you have not used.';
    }
    return 'Wrong email or password.';
  }
  if (error === 'Configuration') return 'Sign-in is not available right now. Please try again later.';
  // AccessDenied (an address the provider has not verified), OAuthCallbackError, OAuthSignin…
  return provider ? `Failed to sign in with ${provider}` : 'Failed to sign in. Please try again.';
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
  return (await signInWithCredentials({ email, password }, callbackUrl))?.message ?? null;
}

/** Why a password sign-in did not go through; `needsCode` when the password was right and two-factor is on. */
export interface SignInFailure {
  message: string;
  needsCode: boolean;
}

/** Whether Auth.js's answer asks for the second step (a code from the authenticator app or a recovery code). */
export function asksForCode(code: string | null): boolean {
  return code === 'two_factor_required' || code === 'two_factor_invalid';
}

/**
 * signInWithPassword with the second step: `code` is a TOTP or recovery code, sent along with the
 * e-mail and password again (the server keeps nothing between the two steps).
 */
export async function signInWithCredentials(
  input: { email: string; password: string; code?: string },
  callbackUrl = '/',
): Promise<SignInFailure | null> {
  const fields: Record<string, string> = { csrfToken: await csrfToken(), email: input.email, password: input.password };
  if (input.code) fields.code = input.code;
  const response = await fetch('/api/auth/callback/credentials', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
    body: new URLSearchParams({ ...fields, callbackUrl }),
  });
  // The address's own rate limit answers before Auth.js does, with its message.
  if (!response.ok) return { message: await messageOf(response), needsCode: false };
  const next = new URL(((await response.json()) as { url: string }).url, window.location.origin);
  const code = next.searchParams.get('code');
  const error = signInErrorMessage(next.searchParams.get('error'), code);
  if (error) return { message: error, needsCode: asksForCode(code) };
  window.location.assign(safeCallbackUrl(next.href));
  return null;
}

/** Starts Google's sign-in (signInWithProvider). */
export function signInWithGoogle(callbackUrl: string) {
  return signInWithProvider({ id: 'google', name: 'Google' }, callbackUrl);
}

/**
 * Starts an identity provider's sign-in: a real form post with the CSRF token, because the browser
 * must follow Auth.js's redirect to the provider and back.
 */
export async function signInWithProvider(provider: IdentityProvider, callbackUrl: string) {
  try {
    window.sessionStorage.setItem(CHOSEN_PROVIDER, provider.name);
  } catch {}
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = `/api/auth/signin/${encodeURIComponent(provider.id)}`;
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

import { toast } from '../ui/toast.tsx';

// A data call that finds the session gone says so, then goes to sign-in
// after 500 ms. Several calls failing together redirect once.

/** A failed call whose session was gone (errorFromResponse's "401: …Unauthorized"). */
export function isUnauthorizedError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^401: .*Unauthorized/.test(message);
}

export const LOGIN_REDIRECT_DELAY_MS = 500;
let redirecting = false;

export function loginUrl(): string {
  const back = `${window.location.pathname}${window.location.search}`;
  return `/api/login?callbackUrl=${encodeURIComponent(back)}`;
}

// While the person signs out, the server ending their session answers the calls still in flight
// with 401 and closes the live socket: that is the sign-out itself, not a session that expired.
let signingOut = false;

/** Called as a sign-out starts; `signOutEnded` if it failed. */
export function signOutStarted() {
  signingOut = true;
}

export function signOutEnded() {
  signingOut = false;
}

export function handleUnauthorized(title = 'Unauthorized') {
  if (redirecting || signingOut) return;
  redirecting = true;
  toast({ title, description: 'You are logged out. Logging in again...', variant: 'destructive' });
  setTimeout(() => window.location.assign(loginUrl()), LOGIN_REDIRECT_DELAY_MS);
}

/** Call from a catch: handles a 401 and says so, so the caller can skip its own error toast. */
export function handledAsUnauthorized(error: unknown, title?: string): boolean {
  if (!isUnauthorizedError(error)) return false;
  handleUnauthorized(title);
  return true;
}

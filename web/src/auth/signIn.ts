import { errorFromResponse } from '../lib/http.ts';

/** Starts sign-in in the browser (SPEC.md section 7: navigation to /api/login). */
export function goToSignIn(callbackUrl = '/') {
  window.location.assign(`/api/login?callbackUrl=${encodeURIComponent(callbackUrl)}`);
}

/** Creates a local account; throws with the server's message (e.g. the address is taken). */
export async function signUp(input: { name: string; email: string; password: string }) {
  const response = await fetch('/api/auth/signup', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (!response.ok) {
    const text = await response.text();
    let message: string | undefined;
    try {
      message = (JSON.parse(text) as { message?: string }).message;
    } catch {}
    throw message ? new Error(message) : await errorFromResponse(new Response(text, { status: response.status }));
  }
}

/**
 * Signs in with e-mail and password through Auth.js's credentials flow. A real form post, so
 * the browser follows Auth.js's redirect and stores the session cookie like any sign-in.
 */
export async function signInWithPassword(email: string, password: string, callbackUrl = '/') {
  const csrf = await fetch('/api/auth/csrf', { credentials: 'include' });
  if (!csrf.ok) throw await errorFromResponse(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/api/auth/callback/credentials';
  form.hidden = true;
  for (const [name, value] of Object.entries({ csrfToken, email, password, callbackUrl })) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

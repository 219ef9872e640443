// The account calls of api/src/auth/account-routes.ts: sign-up's answer, verified addresses and
// passwords. Each resolves to the server's answer, or throws an Error with the server's message.

export interface AccountAnswer {
  message: string;
  email?: string;
}

/** Posts JSON to an account path; the server's message as the Error's when it refuses. */
export async function postAccount(path: string, body?: unknown): Promise<AccountAnswer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
  } catch {
    throw new Error('Could not reach Scoutbase. Check your connection and try again.');
  }
  const text = await response.text();
  let answer: Partial<AccountAnswer> = {};
  try {
    answer = JSON.parse(text) as Partial<AccountAnswer>;
  } catch {}
  if (!response.ok) {
    if (response.status === 401) throw new Error('Your session has ended. Sign in again.');
    throw new Error(answer.message || `Something went wrong (${response.status}). Please try again.`);
  }
  return { message: answer.message ?? '', ...(answer.email && { email: answer.email }) };
}

export const verifyEmail = (token: string) => postAccount('/api/auth/verify-email', { token });
export const resendVerification = () => postAccount('/api/auth/verify-email/resend');
export const requestPasswordReset = (email: string) => postAccount('/api/auth/password-reset', { email });
export const confirmPasswordReset = (token: string, password: string) =>
  postAccount('/api/auth/password-reset/confirm', { token, password });
export const changePassword = (currentPassword: string, newPassword: string) =>
  postAccount('/api/auth/password', { currentPassword, newPassword });

// What our server says when it refuses a request, kept apart from the fetch helpers (http.ts) so
// that code without the UI (the S3 uploader, which the API's tests also run) can use it.

/**
 * The words of a refusal our server explained: an errorFromResponse-style Error "4xx: {"message":…}"
 * gives its message; anything else (a 5xx, a network failure, text that is not ours) gives null.
 */
export function refusalMessage(error: unknown): string | null {
  const match = /^4\d\d: (.*)$/s.exec(error instanceof Error ? error.message : '');
  if (!match) return null;
  try {
    const { message } = JSON.parse(match[1] as string) as { message?: unknown };
    return typeof message === 'string' && message.trim() !== '' ? message : null;
  } catch {
    return null;
  }
}

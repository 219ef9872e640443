import { type AuthorizedFetch, type OAuthProvider, SourceUnavailableError } from './connector.ts';

// OAuth 2.0 over the wire, for the sources that need an account link (Google Drive, Dropbox):
// the consent URL, the token endpoint (code and refresh grants) and requests with a bearer token.
// Which tokens a person has, and when to refresh, is the imports domain's (imports/oauth.ts).

export function authorizeUrl(provider: OAuthProvider, state: string, redirectUri: string) {
  const url = new URL(provider.config.authUrl);
  url.searchParams.set('client_id', provider.config.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('state', state);
  if (provider.scope) url.searchParams.set('scope', provider.scope);
  for (const [k, v] of Object.entries(provider.authorizeParams)) url.searchParams.set(k, v);
  return url.toString();
}

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
}

/** The provider refused the grant (invalid_grant): a used code, a revoked refresh token. */
export class GrantRefusedError extends Error {}

export async function tokenRequest(provider: OAuthProvider, params: Record<string, string>): Promise<TokenAnswer> {
  let response: Response;
  try {
    response = await fetch(provider.config.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...params,
        client_id: provider.config.clientId,
        client_secret: provider.config.clientSecret,
      }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new SourceUnavailableError();
  }
  const answer = (await response.json().catch(() => null)) as (TokenAnswer & { error?: string }) | null;
  if (response.status === 400 || response.status === 401) {
    // invalid_grant: the code was used or the refresh token revoked; the person must connect again.
    throw new GrantRefusedError(answer?.error ?? `token endpoint answered ${response.status}`);
  }
  if (!response.ok || typeof answer?.access_token !== 'string') throw new SourceUnavailableError();
  return answer;
}

export function tokenExpiry(answer: TokenAnswer) {
  return typeof answer.expires_in === 'number' ? new Date(Date.now() + answer.expires_in * 1000) : null;
}

/** One request with the access token; an unreachable provider is SourceUnavailableError. */
export async function bearerFetch(url: string, init: Parameters<AuthorizedFetch>[1] = {}, accessToken: string) {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${accessToken}`);
  try {
    return await fetch(url, { ...init, headers, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
  } catch {
    throw new SourceUnavailableError();
  }
}

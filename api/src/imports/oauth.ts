import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { decryptToken, derivedKey, encryptToken } from '../shared/sealed.ts';
import type { Services, Viewer } from '../context.ts';
import { ForbiddenError } from '../shared/errors.ts';
import {
  type AuthorizedFetch,
  type OAuthProvider,
  type OAuthSourceId,
  SourceUnavailableError,
} from '../infra/import-sources/connector.ts';
import {
  bearerFetch,
  GrantRefusedError,
  type TokenAnswer,
  tokenExpiry,
  tokenRequest,
} from '../infra/import-sources/oauth.ts';
import { NotConnectedError, SOURCE_NAMES } from './sources.ts';

// The OAuth connections of Google Drive and Dropbox: the signed state, and the token store.
// Tokens are encrypted at rest (AES-256-GCM, key derived from AUTH_SECRET) and never sent to a
// browser. What goes over the wire to a provider is infra/import-sources/oauth.ts.

export interface ImportKeys {
  /** Encrypts tokens at rest. */
  tokenKey: Buffer;
  /** Signs the OAuth state parameter. */
  stateKey: Buffer;
}

export function importKeys(secret: string): ImportKeys {
  const derive = (info: string) => derivedKey(secret, 'scoutbase-imports', info);
  return { tokenKey: derive('import-token-encryption'), stateKey: derive('import-oauth-state') };
}

// A token sealed under another AUTH_SECRET opens as null: the person connects again.
export { decryptToken, encryptToken };

// ───────────── state: who started the flow, for which source, back to which URL ─────────────

const STATE_TTL_MS = 15 * 60 * 1000;

interface StatePayload {
  u: string;
  s: OAuthSourceId;
  r: string;
  e: number;
  n: string;
}

export function signState(keys: ImportKeys, payload: Omit<StatePayload, 'e' | 'n'>) {
  const body = Buffer.from(
    JSON.stringify({ ...payload, e: Date.now() + STATE_TTL_MS, n: randomBytes(8).toString('base64url') }),
  ).toString('base64url');
  return `${body}.${createHmac('sha256', keys.stateKey).update(body).digest('base64url')}`;
}

/** The redirect URI of a state this viewer started for this source, or a 403. */
export function verifyState(keys: ImportKeys, state: string | undefined, viewer: Viewer, source: OAuthSourceId) {
  const refused = new ForbiddenError('This connection link is invalid or has expired. Please try again.');
  const [body, signature] = (state ?? '').split('.');
  if (!body || !signature) throw refused;
  const expected = createHmac('sha256', keys.stateKey).update(body).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
  let payload: StatePayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload;
  } catch {
    throw refused;
  }
  if (payload.u !== viewer.id || payload.s !== source || payload.e < Date.now()) throw refused;
  return payload.r;
}

type Deps = Pick<Services, 'db' | 'logger'> & { keys: ImportKeys };

/** Trades the consent code for tokens and keeps them (encrypted) for this viewer. */
export async function completeConnection(
  deps: Deps,
  viewer: Viewer,
  provider: OAuthProvider,
  code: string,
  redirectUri: string,
  accountName: (accessToken: string) => Promise<string | null>,
) {
  let answer: TokenAnswer;
  try {
    answer = await tokenRequest(provider, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  } catch (error) {
    if (error instanceof GrantRefusedError) throw new SourceUnavailableError();
    throw error;
  }
  const name = await accountName(answer.access_token).catch(() => null);
  const data = {
    accessToken: encryptToken(deps.keys.tokenKey, answer.access_token),
    refreshToken: answer.refresh_token ? encryptToken(deps.keys.tokenKey, answer.refresh_token) : null,
    expiresAt: tokenExpiry(answer),
    accountName: name,
  };
  await deps.db.importConnection.upsert({
    where: { userId_provider: { userId: viewer.id, provider: provider.id } },
    create: { userId: viewer.id, provider: provider.id, ...data },
    update: data,
  });
}

/**
 * fetch with the viewer's access token for the provider: refreshed before it expires, and once
 * more when the provider says 401. A refresh the provider refuses ends the connection.
 */
export async function authorizedFetch(deps: Deps, viewer: Viewer, provider: OAuthProvider): Promise<AuthorizedFetch> {
  const name = SOURCE_NAMES[provider.id];
  const notConnected = () => new NotConnectedError(`Connect ${name} first.`);
  const where = { userId_provider: { userId: viewer.id, provider: provider.id } };
  const row = await deps.db.importConnection.findUnique({ where });
  if (!row) throw notConnected();
  const stored = decryptToken(deps.keys.tokenKey, row.accessToken);
  const refreshToken = row.refreshToken ? decryptToken(deps.keys.tokenKey, row.refreshToken) : null;
  if (!stored) {
    await deps.db.importConnection.deleteMany({ where: { id: row.id } });
    throw notConnected();
  }
  let accessToken = stored;
  let expiresAt = row.expiresAt;

  async function refresh() {
    if (!refreshToken) {
      await deps.db.importConnection.deleteMany({ where: { id: row?.id } });
      throw new NotConnectedError(`The ${name} connection has expired. Connect ${name} again.`);
    }
    let answer: TokenAnswer;
    try {
      answer = await tokenRequest(provider, { grant_type: 'refresh_token', refresh_token: refreshToken });
    } catch (error) {
      if (!(error instanceof GrantRefusedError)) throw error;
      deps.logger?.warn({ provider: provider.id, reason: error.message }, 'import connection refresh refused');
      await deps.db.importConnection.deleteMany({ where: { id: row?.id } });
      throw new NotConnectedError(`The ${name} connection has expired. Connect ${name} again.`);
    }
    accessToken = answer.access_token;
    expiresAt = tokenExpiry(answer);
    await deps.db.importConnection.updateMany({
      where: { id: row?.id },
      data: {
        accessToken: encryptToken(deps.keys.tokenKey, answer.access_token),
        expiresAt,
        // Some providers rotate refresh tokens; keep the newest.
        ...(answer.refresh_token && { refreshToken: encryptToken(deps.keys.tokenKey, answer.refresh_token) }),
      },
    });
  }

  return async (url, init = {}) => {
    if (expiresAt && expiresAt.getTime() < Date.now() + 60_000) await refresh();
    const send = () => bearerFetch(url, init, accessToken);
    let response = await send();
    if (response.status === 401) {
      await response.body?.cancel();
      await refresh();
      response = await send();
      if (response.status === 401) {
        await response.body?.cancel();
        await deps.db.importConnection.deleteMany({ where: { id: row.id } });
        throw new NotConnectedError(`The ${name} connection has expired. Connect ${name} again.`);
      }
    }
    return response;
  };
}

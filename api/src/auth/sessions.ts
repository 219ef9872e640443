import { decode } from '@auth/core/jwt';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../infra/db/database.ts';
import { isUuid } from '../shared/ids.ts';

export interface Viewer {
  id: string;
  email: string;
  sessionId: string;
  /** Whether the account proved it reads its address (absent: not known to, so treated as no). */
  emailVerified?: boolean;
}

export const SESSION_COOKIE = 'authjs.session-token';
export const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;
// How often a session's lastSeenAt and expiry are pushed forward while it is used.
const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export async function startSession(
  db: Db,
  userId: string,
  maxAgeSeconds: number,
  meta: { userAgent?: string | null; ipAddress?: string | null },
) {
  return db.session.create({
    data: {
      userId,
      expiresAt: new Date(Date.now() + maxAgeSeconds * 1000),
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      ipAddress: meta.ipAddress ?? null,
    },
  });
}

export async function endSession(db: Db, sessionId: string) {
  await db.session.deleteMany({ where: { id: sessionId } });
}

/** The signed-in user behind a session id, or null when it ended or expired or the account is disabled. */
export async function viewerForSession(db: Db, sessionId: string, maxAgeSeconds: number): Promise<Viewer | null> {
  // On every request's path: hand-written SQL (see Db.$sql). A session id that is not a uuid cannot
  // name a session, and PostgreSQL would refuse it as a parameter.
  if (!isUuid(sessionId)) return null;
  const [session] = await db.$sql<{
    userId: string;
    email: string;
    emailVerified: boolean;
    expiresAt: Date;
    lastSeenAt: Date;
  }>(
    `SELECT u.id AS "userId", u.email, u."emailVerified" IS NOT NULL AS "emailVerified", s."expiresAt" AT TIME ZONE 'UTC' AS "expiresAt",
            s."lastSeenAt" AT TIME ZONE 'UTC' AS "lastSeenAt"
     FROM "Session" s JOIN "User" u ON u.id = s."userId"
     WHERE s.id = $1::uuid AND u."disabledAt" IS NULL`,
    [sessionId],
  );
  const now = Date.now();
  if (!session || session.expiresAt.getTime() <= now) return null;
  if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    // Sliding expiry: an active session stays signed in, an idle one runs out.
    await db.session.update({
      where: { id: sessionId },
      data: { lastSeenAt: new Date(now), expiresAt: new Date(now + maxAgeSeconds * 1000) },
    });
  }
  return { id: session.userId, email: session.email, emailVerified: session.emailVerified, sessionId };
}

export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

// Decoding an Auth.js cookie derives a key (HKDF) and decrypts the token on every request: about a
// quarter of the CPU of a simple read (bench/api.ts). A token always decodes to the same session id,
// so remember it until the token itself expires. The session row is still read on every request,
// so signing out or revoking a session takes effect at once.
const decodedTokens = new Map<string, { sid: string; expiresAtMs: number }>();
const DECODED_TOKENS_MAX = 10_000;

/** The session id inside the Auth.js session cookie of a request, if the cookie is valid. */
export async function sessionIdFromCookies(cookieHeader: string | null, secret: string): Promise<string | null> {
  for (const name of [SECURE_SESSION_COOKIE, SESSION_COOKIE]) {
    const token = readCookie(cookieHeader, name);
    if (!token) continue;
    const key = `${name}\n${secret}\n${token}`;
    const known = decodedTokens.get(key);
    if (known && known.expiresAtMs > Date.now()) return known.sid;
    if (known) decodedTokens.delete(key);
    try {
      const payload = await decode({ token, secret, salt: name });
      if (payload && typeof payload.sid === 'string') {
        if (decodedTokens.size >= DECODED_TOKENS_MAX) decodedTokens.clear();
        const expiresAtMs = typeof payload.exp === 'number' ? payload.exp * 1000 : Date.now() + 60_000;
        decodedTokens.set(key, { sid: payload.sid, expiresAtMs });
        return payload.sid;
      }
    } catch {
      // A tampered, expired or foreign cookie is simply no session.
    }
  }
  return null;
}

// ───────────── short-lived access tokens (the spec's /api/auth/firebase-token) ─────────────

const TOKEN_AUDIENCE = 'scoutbase:access';

function tokenKey(secret: string) {
  return new TextEncoder().encode(`${secret}:access-token`);
}

/** A token that stands for a session for a few minutes: for WebSockets and upload URLs. */
export async function issueAccessToken(secret: string, viewer: Viewer, ttlSeconds = 300): Promise<string> {
  return new SignJWT({ sid: viewer.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(viewer.id)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(tokenKey(secret));
}

/** The session id an access token stands for, or null if it is invalid or expired. */
export async function sessionIdFromAccessToken(secret: string, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, tokenKey(secret), { audience: TOKEN_AUDIENCE, algorithms: ['HS256'] });
    return typeof payload.sid === 'string' ? payload.sid : null;
  } catch {
    return null;
  }
}

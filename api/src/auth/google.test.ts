import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, testApp, type TestApp } from '../../test/harness.ts';
import { signInThroughIssuer, startOidcIssuer } from '../../test/fakes/oidc-issuer.ts';

const client = {
  clientId: 'scoutbase-test',
  clientSecret: 'a-client-secret-for-tests',
  redirectUri: `${BASE}/api/auth/callback/google`,
};

let issuer: Awaited<ReturnType<typeof startOidcIssuer>>;
let app: TestApp;

beforeAll(async () => {
  issuer = await startOidcIssuer(client);
  app = await testApp({
    AUTH_GOOGLE_ID: client.clientId,
    AUTH_GOOGLE_SECRET: client.clientSecret,
    AUTH_GOOGLE_ISSUER: issuer.issuer,
  });
});
afterAll(async () => {
  await app?.close();
  await issuer?.close();
});

/** Google's flow, with the checks on the authorization request the app sends the browser to. */
async function signInWithGoogle(sub: string) {
  const flow = await signInThroughIssuer(app, issuer, 'google', sub);
  expect(flow.authorize.toString().startsWith(`${issuer.issuer}/auth?`)).toBe(true);
  expect(flow.authorize.searchParams.get('scope')).toBe('openid email profile');
  expect(flow.authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(flow.returnedTo.startsWith(client.redirectUri)).toBe(true);
  return flow;
}

describe('sign-in with Google (OpenID Connect)', () => {
  it('creates the account from the verified identity and signs the person in', async () => {
    issuer.addAccount({
      sub: 'google-1001',
      email: 'Rosa.Diaz@Example.com',
      email_verified: true,
      name: 'Rosa Diaz',
      given_name: 'Rosa',
      family_name: 'Diaz',
      picture: 'https://images.example.com/rosa.png',
    });
    const { jar, callback } = await signInWithGoogle('google-1001');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(`${BASE}/`);
    const user = await app.request('/api/auth/user', { cookie: jar.header });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({
      email: 'rosa.diaz@example.com',
      firstName: 'Rosa',
      lastName: 'Diaz',
      displayName: 'Rosa Diaz',
      profileImageUrl: 'https://images.example.com/rosa.png',
    });

    // Signing in again reaches the same account.
    const again = await signInWithGoogle('google-1001');
    const second = (await (await app.request('/api/auth/user', { cookie: again.jar.header })).json()) as { id: string };
    const first = (await (await app.request('/api/auth/user', { cookie: jar.header })).json()) as { id: string };
    expect(second.id).toBe(first.id);
    expect(await app.database.prisma.user.count({ where: { email: 'rosa.diaz@example.com' } })).toBe(1);
  });

  it('links to an existing local account with the same verified address', async () => {
    const signup = await app.request('/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lee Park', email: 'lee@example.com', password: 'long enough password' }),
    });
    expect(signup.status).toBe(202);
    const local = await app.database.prisma.user.findUniqueOrThrow({ where: { email: 'lee@example.com' } });
    issuer.addAccount({
      sub: 'google-2002',
      email: 'lee@example.com',
      email_verified: true,
      name: 'Lee Park',
      given_name: 'Lee',
      family_name: 'Park',
    });
    const { jar } = await signInWithGoogle('google-2002');
    const user = (await (await app.request('/api/auth/user', { cookie: jar.header })).json()) as { id: string };
    expect(user.id).toBe(local.id);
  });

  it('refuses an identity whose address the provider has not verified', async () => {
    issuer.addAccount({
      sub: 'google-3003',
      email: 'spoof@example.com',
      email_verified: false,
      name: 'Spoof',
      given_name: 'S',
      family_name: 'P',
    });
    const { jar, callback } = await signInWithGoogle('google-3003');
    expect(callback.headers.get('location')).toContain('error=AccessDenied');
    expect(jar.has('authjs.session-token')).toBe(false);
    expect(await app.database.prisma.user.count({ where: { email: 'spoof@example.com' } })).toBe(0);
  });

  it('offers Google only when it is configured', async () => {
    const providers = (await (await app.request('/api/auth/providers')).json()) as Record<string, unknown>;
    expect(Object.keys(providers).sort()).toEqual(['credentials', 'google']);
    const plain = await testApp();
    try {
      const only = (await (await plain.request('/api/auth/providers')).json()) as Record<string, unknown>;
      expect(Object.keys(only)).toEqual(['credentials']);
    } finally {
      await plain.close();
    }
  });
});

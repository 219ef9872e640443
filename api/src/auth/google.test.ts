import { describe, expect, it } from 'vitest';
import { BASE, testApp, type TestApp } from '../../test/harness.ts';
import {
  appWithIssuer,
  googleClient,
  googleSettings,
  type OidcIssuer,
  identity,
  checkedSignIn,
} from '../../test/fakes/oidc-issuer.ts';

const client = googleClient;
let issuer: OidcIssuer, app: TestApp;
appWithIssuer(client, googleSettings, (started, its) => {
  [app, issuer] = [started, its];
});

/** Google's flow, with the checks on the authorization request the app sends the browser to. */
const signInWithGoogle = (sub: string) => checkedSignIn(app, issuer, 'google', sub, client.redirectUri);

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
    issuer.addAccount(identity('google-2002', 'lee@example.com', 'Lee Park'));
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

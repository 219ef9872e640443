// Sign-in through any OpenID Connect provider (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET,
// OIDC_NAME), against the same local issuer the Google tests use (oidc-provider on 127.0.0.1).
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, readConfig } from '../config.ts';
import { BASE, type CookieJar, signedInUser, testApp, type TestApp } from '../../test/harness.ts';
import { appWithIssuer, checkedSignIn, identity, type OidcIssuer } from '../../test/fakes/oidc-issuer.ts';

// Apps of their own start in some tests: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

const client = {
  clientId: 'scoutbase-sso',
  clientSecret: 'a-client-secret-for-the-sso-tests',
  redirectUri: `${BASE}/api/auth/callback/oidc`,
};

let issuer: OidcIssuer, app: TestApp;
appWithIssuer(
  client,
  (started) => ({
    OIDC_ISSUER: started.issuer,
    OIDC_CLIENT_ID: client.clientId,
    OIDC_CLIENT_SECRET: client.clientSecret,
    OIDC_NAME: 'Studio SSO',
  }),
  (started, its) => {
    [app, issuer] = [started, its];
  },
);

/** The authorization-code flow through the generic provider, with the checks on its request. */
async function signInWithSso(sub: string) {
  const flow = await checkedSignIn(app, issuer, 'oidc', sub, client.redirectUri);
  expect(flow.authorize.searchParams.get('state')).toBeTruthy();
  expect(flow.authorize.searchParams.get('redirect_uri')).toBe(client.redirectUri);
  return flow;
}

async function whoIs(jar: CookieJar) {
  const answer = await app.request('/api/auth/user', { cookie: jar.header });
  return {
    status: answer.status,
    user: answer.status === 200 ? ((await answer.json()) as { id: string; email: string }) : null,
  };
}

describe('sign-in through an OpenID Connect provider', () => {
  it('walks the whole code flow and makes the account from the verified identity', async () => {
    issuer.addAccount(identity('kc-1001', 'Ana.Lima@Studio.example', 'Ana Lima'));
    const { jar, callback } = await signInWithSso('kc-1001');
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(`${BASE}/`);
    const { status, user } = await whoIs(jar);
    expect(status).toBe(200);
    expect(user).toMatchObject({ email: 'ana.lima@studio.example' });
    const linked = await app.database.prisma.account.findMany({ where: { userId: user?.id } });
    expect(linked.map((a) => [a.provider, a.providerAccountId])).toEqual([['oidc', 'kc-1001']]);
    const row = await app.database.prisma.user.findUniqueOrThrow({ where: { id: user?.id } });
    expect(row.emailVerified).not.toBeNull();

    // Again: the same account.
    const again = await signInWithSso('kc-1001');
    expect((await whoIs(again.jar)).user?.id).toBe(user?.id);
  });

  it('links to an existing local account through a verified address', async () => {
    const local = await signedInUser(app, { email: 'sam@studio.example' });
    issuer.addAccount(identity('kc-2002', 'sam@studio.example', 'Sam Park'));
    const { jar } = await signInWithSso('kc-2002');
    expect((await whoIs(jar)).user?.id).toBe(local.id);
  });

  it('an identity whose address the provider has not verified cannot take over a local account', async () => {
    const victim = await signedInUser(app, { email: 'producer@studio.example' });
    issuer.addAccount(identity('kc-3003', 'PRODUCER@studio.example', 'Not The Producer', false));
    const { jar, callback } = await signInWithSso('kc-3003');
    expect(callback.headers.get('location')).toContain('error=AccessDenied');
    expect(jar.has('authjs.session-token')).toBe(false);
    expect((await whoIs(jar)).status).toBe(401);
    expect(await app.database.prisma.account.count({ where: { userId: victim.id } })).toBe(0);
    expect(await app.database.prisma.account.count({ where: { provider: 'oidc', providerAccountId: 'kc-3003' } })).toBe(
      0,
    );
    // …nor make an account of its own.
    issuer.addAccount(identity('kc-3004', 'newcomer@studio.example', 'New Comer', false));
    await signInWithSso('kc-3004');
    expect(await app.database.prisma.user.count({ where: { email: 'newcomer@studio.example' } })).toBe(0);
  });
});

describe('the providers the sign-in page offers', () => {
  async function providers(of: TestApp) {
    return (await (await of.request('/api/auth/providers')).json()) as Record<string, { name: string; type: string }>;
  }

  it('are exactly the configured ones, the OpenID Connect one under its name', async () => {
    const listed = await providers(app);
    expect(Object.keys(listed).sort()).toEqual(['credentials', 'oidc']);
    expect(listed.oidc).toMatchObject({ name: 'Studio SSO', type: 'oidc' });

    const both = await testApp({
      AUTH_GOOGLE_ID: 'google-client',
      AUTH_GOOGLE_SECRET: 'google-secret',
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: client.clientId,
      OIDC_CLIENT_SECRET: client.clientSecret,
    });
    const plain = await testApp();
    try {
      const all = await providers(both);
      expect(Object.keys(all).sort()).toEqual(['credentials', 'google', 'oidc']);
      expect(all.oidc?.name).toBe('Single sign-on');
      expect(Object.keys(await providers(plain))).toEqual(['credentials']);
    } finally {
      await both.close();
      await plain.close();
    }
  });

  it('come from settings that are all there or none', () => {
    const base = { OIDC_ISSUER: 'https://sso.example.com/realms/studio', OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' };
    expect(readConfig(base).auth.oidc).toEqual({
      issuer: 'https://sso.example.com/realms/studio',
      clientId: 'x',
      clientSecret: 'y',
      name: 'Single sign-on',
    });
    expect(readConfig({}).auth.oidc).toBeUndefined();
    expect(() => readConfig({ OIDC_ISSUER: base.OIDC_ISSUER })).toThrow(ConfigError);
    expect(() => readConfig({ OIDC_ISSUER: base.OIDC_ISSUER })).toThrow(/OIDC_CLIENT_ID: set OIDC_ISSUER/);
    expect(() => readConfig({ OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' })).toThrow(/OIDC_ISSUER/);
    expect(() => readConfig({ OIDC_NAME: 'Studio SSO' })).toThrow(ConfigError);
    expect(() => readConfig({ ...base, OIDC_ISSUER: 'sso.example.com' })).toThrow(
      /OIDC_ISSUER: must be the issuer URL/,
    );
  });
});

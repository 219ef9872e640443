import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { afterAll, beforeAll, expect } from 'vitest';
import { BASE, CookieJar, csrfToken, testApp, type TestApp } from '../harness.ts';

export interface IssuerAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  given_name: string;
  family_name: string;
  picture?: string;
}

/** An identity the issuer vouches for: `name`'s first word is the given name, its last the family name. */
export function identity(sub: string, email: string, name: string, verified = true): IssuerAccount {
  const words = name.split(' ');
  return {
    sub,
    email,
    email_verified: verified,
    name,
    given_name: words[0] as string,
    family_name: words.at(-1) as string,
  };
}

/**
 * A real OpenID Connect issuer on 127.0.0.1 (the oidc-provider package) standing in for Google.
 * Its login screen is replaced by `nextLogin`: whichever account a test sets signs in.
 */
export async function startOidcIssuer(client: { clientId: string; clientSecret: string; redirectUri: string }) {
  const accounts = new Map<string, IssuerAccount>();
  let nextLogin: string | undefined;
  let provider: Provider | undefined;

  const server: Server = createServer(async (req, res) => {
    if (!provider) return res.end();
    const interaction = req.url?.match(/^\/interaction\/([^/?]+)/);
    if (interaction) {
      if (!nextLogin) {
        res.statusCode = 400;
        return res.end('no account chosen for this sign-in');
      }
      await provider.interactionDetails(req, res);
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: nextLogin } },
        { mergeWithLastSubmission: false },
      );
    }
    return provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // Put e-mail and name in the id token, where Auth.js reads them (Google does the same).
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'picture'],
    },
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      return account ? { accountId: id, claims: () => ({ ...account }) } : undefined;
    },
    // First-party client: no consent screen, like Google for an app its users already trust.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client: c, session } = ctx.oidc;
      if (!c || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: c.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  return {
    issuer,
    addAccount(account: IssuerAccount) {
      accounts.set(account.sub, account);
    },
    loginAs(sub: string) {
      nextLogin = sub;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OidcIssuer = Awaited<ReturnType<typeof startOidcIssuer>>;

/**
 * The whole authorization-code flow as a browser walks it: the app's sign-in with `provider` starts
 * it, the issuer signs `sub` in and redirects back with a code, and the app exchanges the code. The
 * issuer's authorization request is handed back for its checks (scope, PKCE, state).
 */
export async function signInThroughIssuer(
  app: TestApp,
  issuer: Pick<OidcIssuer, 'issuer' | 'loginAs'>,
  provider: 'google' | 'oidc',
  sub: string,
) {
  issuer.loginAs(sub);
  const appJar = new CookieJar();
  const issuerJar = new CookieJar();
  const csrf = await csrfToken(app, appJar);
  const start = await app.request(`/api/auth/signin/${provider}`, {
    method: 'POST',
    cookie: appJar.header,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrfToken: csrf, callbackUrl: '/' }),
  });
  appJar.store(start);
  let location = start.headers.get('location') ?? '';
  const authorize = new URL(location, BASE);
  // At the issuer: follow its redirects until it sends the browser back to the app.
  for (let hop = 0; hop < 10 && location.startsWith(issuer.issuer); hop++) {
    const response = await fetch(location, { redirect: 'manual', headers: { cookie: issuerJar.header } });
    issuerJar.store(response);
    const next = response.headers.get('location');
    if (!next) throw new Error(`issuer stopped at ${location}: ${response.status} ${await response.text()}`);
    location = new URL(next, location).toString();
  }
  const callback = await app.request(location.slice(BASE.length), { cookie: appJar.header });
  appJar.store(callback);
  return { jar: appJar, callback, authorize, returnedTo: location };
}

type IssuerClient = Parameters<typeof startOidcIssuer>[0];

/** The app's Google client, as the local issuer knows it. */
export const googleClient: IssuerClient = {
  clientId: 'scoutbase-test',
  clientSecret: 'a-client-secret-for-tests',
  redirectUri: `${BASE}/api/auth/callback/google`,
};

/** The settings that send the app's Google sign-in to the local issuer. */
export const googleSettings = (issuer: OidcIssuer) => ({
  AUTH_GOOGLE_ID: googleClient.clientId,
  AUTH_GOOGLE_SECRET: googleClient.clientSecret,
  AUTH_GOOGLE_ISSUER: issuer.issuer,
});

/**
 * For one test file: a local issuer that knows `client` and an app with `settings(issuer)`, started
 * before its tests (`use` takes them) and closed after them.
 */
export function appWithIssuer(
  client: IssuerClient,
  settings: (issuer: OidcIssuer) => Record<string, string>,
  use: (app: TestApp, issuer: OidcIssuer) => void,
) {
  let issuer: OidcIssuer | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    issuer = await startOidcIssuer(client);
    app = await testApp(settings(issuer));
    use(app, issuer);
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });
}

/**
 * signInThroughIssuer() with the checks every provider's authorization request must pass: the
 * issuer's endpoint, the OpenID scopes, PKCE, and the way back to the app at `redirectUri`.
 */
export async function checkedSignIn(
  app: TestApp,
  issuer: OidcIssuer,
  provider: 'google' | 'oidc',
  sub: string,
  redirectUri: string,
) {
  const flow = await signInThroughIssuer(app, issuer, provider, sub);
  expect(flow.authorize.toString().startsWith(`${issuer.issuer}/auth?`)).toBe(true);
  expect(flow.authorize.searchParams.get('scope')).toBe('openid email profile');
  expect(flow.authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(flow.returnedTo.startsWith(redirectUri)).toBe(true);
  return flow;
}

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, readConfig } from '../../src/config.ts';
import { person } from '../harness.ts';
import { type Listening, listeningApp } from '../live.ts';

// The client's address decides every per-address budget (sign-up, sign-in throttling, upload URLs,
// AI). Behind proxies it comes from X-Forwarded-For, whose left end the client writes itself: only
// the entries the declared proxies appended may be believed (issue 17, item 3).

const random = () => `${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

describe('TRUST_PROXY', () => {
  const read = (value: string | undefined) => readConfig({ TRUST_PROXY: value }).trustProxy;

  it('takes a hop count or the proxies’ addresses and ranges', () => {
    expect(read(undefined)).toBeUndefined();
    expect(read('false')).toBeUndefined();
    expect(read('0')).toBeUndefined();
    expect(read('1')).toEqual({ hops: 1 });
    expect(read('2')).toEqual({ hops: 2 });
    expect(read('loopback, 10.0.0.0/8 ,fd00::/8,192.168.1.10')).toEqual({
      addresses: ['loopback', '10.0.0.0/8', 'fd00::/8', '192.168.1.10'],
    });
  });

  it('refuses `true`, which does not say which proxies to believe, and says what to write instead', () => {
    for (const value of ['true', 'yes']) {
      expect(() => read(value)).toThrow(/TRUST_PROXY: .*TRUST_PROXY=1 .*TRUST_PROXY=loopback,10\.0\.0\.0\/8/s);
    }
  });

  it('refuses what is not an address or a range, naming it', () => {
    expect(() => read('10.0.0.300')).toThrow(/TRUST_PROXY: '10\.0\.0\.300' is not/);
    expect(() => read('loopback,10.0.0.0/40')).toThrow(/TRUST_PROXY: '10\.0\.0\.0\/40' is not/);
    expect(() => read('nginx')).toThrow(/TRUST_PROXY: 'nginx' is not/);
    expect(() => read('-1')).toThrow(/TRUST_PROXY/);
  });
});

/**
 * Sign-up's status on a describe block's own server with TRUST_PROXY=`trust`. A real server, so the
 * address of the connection (127.0.0.1, the test's "proxy") is the socket's. Sign-up allows two per
 * address: which address a request counts against shows in its answer.
 */
function signUpTrusting(trust: string) {
  let server: Listening;
  beforeAll(async () => {
    [, server] = await listeningApp({ TRUST_PROXY: trust, RATE_LIMITS: 'true' }, (config: Config) => {
      if (config.rateLimits) config.rateLimits.signUp.perAddress = { limit: 2, windowSeconds: 600 };
      return config;
    });
  });
  afterAll(() => server.close());
  return (forwardedFor?: string) =>
    fetch(`${server.http}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify(person()),
    }).then((r) => r.status);
}

describe('behind one proxy (TRUST_PROXY=1)', () => {
  const signUp = signUpTrusting('1');

  it('counts the address the proxy saw, whatever the client wrote to the left of it', async () => {
    const client = random();
    expect(await signUp(`${random()}, ${client}`)).toBe(202);
    expect(await signUp(`${random()}, ${client}`)).toBe(202);
    expect(await signUp(`${random()}, ${random()}, ${client}`)).toBe(429);
    expect(await signUp(client)).toBe(429);
    // Someone else behind the same proxy has budget of their own.
    expect(await signUp(`${client}, ${random()}`)).toBe(202);
  });

  it('counts an IPv6 client by its /64: one network’s many addresses are one client', async () => {
    // A home or an office gets a /64 and may use any address in it.
    const net = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    expect(await signUp(`${net}::1`)).toBe(202);
    expect(await signUp(`${net}:0:0:0:2`)).toBe(202);
    expect(await signUp(`${net}:ffff:1234:5678:9abc`)).toBe(429);
    expect(await signUp(`::ffff:${random()}`)).toBe(202);
  });

  it('does not take garbage the proxy passed on as an address', async () => {
    // The proxy appended the client's address; the text left of it is ignored.
    const client = random();
    expect(await signUp(`not-an-address, ${client}`)).toBe(202);
    expect(await signUp(`also not, ${client}`)).toBe(202);
    expect(await signUp(client)).toBe(429);
  });
});

/** Three sign-ups, each claiming another client address: the third is over the connection's own budget of two. */
async function expectForwardedForIgnored(signUp: ReturnType<typeof signUpTrusting>) {
  expect(await signUp(random())).toBe(202);
  expect(await signUp(random())).toBe(202);
  expect(await signUp(random())).toBe(429);
}

describe('behind proxies named by range (TRUST_PROXY=loopback,10.0.0.0/8)', () => {
  const signUp = signUpTrusting('loopback,10.0.0.0/8');

  it('walks back over the trusted proxies to the first address that is not one', async () => {
    const client = random().replace(/^\d+\./, '198.');
    // client → balancer 10.1.2.3 → sidecar on loopback: X-Forwarded-For is "<client>, 10.1.2.3".
    expect(await signUp(`${random()}, ${client}, 10.1.2.3`)).toBe(202);
    expect(await signUp(`${random()}, ${client}, 10.9.9.9`)).toBe(202);
    expect(await signUp(`${client}, 10.1.2.3`)).toBe(429);
    expect(await signUp(`${client}, 10.1.2.3`.replace(client, random().replace(/^\d+\./, '198.')))).toBe(202);
  });
});

describe('with a proxy declared that is not the one connecting (TRUST_PROXY=10.0.0.0/8, peer 127.0.0.1)', () => {
  const signUp = signUpTrusting('10.0.0.0/8');

  it('ignores X-Forwarded-For: the connection’s own address counts', async () => {
    await expectForwardedForIgnored(signUp);
    expect(await signUp()).toBe(429);
  });
});

describe('without TRUST_PROXY', () => {
  const signUp = signUpTrusting('false');

  it('ignores X-Forwarded-For', async () => {
    await expectForwardedForIgnored(signUp);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, sendBody, signedInUser } from '../../test/harness.ts';
import { countStatements, statementsOf } from '../../test/statements.ts';

let app: TestApp, alice: User, bob: User;
beforeAll(async () => {
  [app, alice, bob] = await appWithPeople(anyone, anyone);
});
afterAll(() => app.close());

async function call(user: User, method: string, path: string, body?: unknown) {
  const response = await sendBody(app, user.cookie, method, path, body);
  return { status: response.status, body: await response.json() };
}

const defaults = { emailNotifications: true, pushNotifications: true, darkMode: false, autoSave: true };

describe('settings', () => {
  it('answers the defaults when nothing is stored, without storing anything', async () => {
    // Sign-up stores the defaults; accounts from before that (or imported ones) have no row.
    expect((await call(alice, 'GET', '/api/user/settings')).body).toEqual(defaults);
    await app.database.prisma.userSettings.deleteMany({ where: { userId: alice.id } });
    const res = await call(alice, 'GET', '/api/user/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(defaults);
    expect(await app.database.prisma.userSettings.count({ where: { userId: alice.id } })).toBe(0);
  });

  it('saves the switches given and keeps the others (round trip), per user', async () => {
    const saved = await call(alice, 'PATCH', '/api/user/settings', { darkMode: true, emailNotifications: false });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ ...defaults, darkMode: true, emailNotifications: false });
    const again = await call(alice, 'PATCH', '/api/user/settings', { autoSave: false });
    expect(again.body).toEqual({ ...defaults, darkMode: true, emailNotifications: false, autoSave: false });
    expect((await call(alice, 'GET', '/api/user/settings')).body).toEqual(again.body);
    // Bob's are untouched.
    expect((await call(bob, 'GET', '/api/user/settings')).body).toEqual(defaults);
    // All four at once, as the settings screen sends them.
    const all = { emailNotifications: true, pushNotifications: false, darkMode: false, autoSave: true };
    expect((await call(alice, 'PATCH', '/api/user/settings', all)).body).toEqual(all);
    expect((await call(alice, 'GET', '/api/user/settings')).body).toEqual(all);
  });

  it.each([
    [{ darkMode: 'yes' }, 'darkMode must be true or false.'],
    [{ autoSave: 1 }, 'autoSave must be true or false.'],
    [{ emailNotifications: null }, 'emailNotifications must be true or false.'],
    [{ theme: 'dark' }, 'Unrecognized key: "theme"'],
    ['{"darkMode":', 'The request body is not valid JSON.'],
  ])('refuses %j with a clear 400', async (body, message) => {
    const res = await call(bob, 'PATCH', '/api/user/settings', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await call(bob, 'GET', '/api/user/settings')).body).toEqual(defaults);
  });

  it('works over GraphQL: viewer.settings and updateSettings', async () => {
    const carol = await signedInUser(app);
    const read = await graphql<{ viewer: { settings: typeof defaults } }>(
      app,
      carol.cookie,
      '{ viewer { settings { emailNotifications pushNotifications darkMode autoSave } } }',
    );
    expect(read.data?.viewer.settings).toEqual(defaults);
    const updated = await graphql<{ updateSettings: { data: typeof defaults } }>(
      app,
      carol.cookie,
      'mutation { updateSettings(darkMode: true, pushNotifications: false) { ... on MutationUpdateSettingsSuccess { data { emailNotifications pushNotifications darkMode autoSave } } } }',
    );
    expect(updated.data?.updateSettings.data).toEqual({ ...defaults, darkMode: true, pushNotifications: false });
    expect((await call(carol, 'GET', '/api/user/settings')).body).toEqual({
      ...defaults,
      darkMode: true,
      pushNotifications: false,
    });
  });
});

describe('the viewer over GraphQL', () => {
  it('reads no row of theirs for their id and settings (the session said who they are), and reads it for their name', async () => {
    const dana = await signedInUser(app);
    const settingsOnly = '{ viewer { id settings { autoSave } } }';
    await graphql(app, dana.cookie, settingsOnly);
    let answer: Awaited<ReturnType<typeof graphql>> | undefined;
    const bare = await countStatements(async () => {
      answer = await graphql(app, dana.cookie, settingsOnly);
    });
    expect(answer?.errors).toBeUndefined();
    expect(answer?.data).toEqual({ viewer: { id: expect.any(String), settings: { autoSave: true } } });
    const named = await countStatements(async () => {
      answer = await graphql(app, dana.cookie, '{ viewer { id displayName settings { autoSave } } }');
    });
    expect(answer?.data).toMatchObject({ viewer: { displayName: expect.any(String), settings: { autoSave: true } } });
    // The session and the settings; the name adds the row.
    expect(bare).toBe(2);
    expect(named).toBe(3);
  });

  it("reads their settings by hand, not through Prisma: every page asks for them (the shell's theme)", async () => {
    const erin = await signedInUser(app);
    await call(erin, 'PATCH', '/api/user/settings', { darkMode: true });
    let answer: Awaited<ReturnType<typeof graphql>> | undefined;
    const statements = await statementsOf(async () => {
      answer = await graphql(app, erin.cookie, '{ viewer { settings { darkMode autoSave } } }');
    });
    expect(answer?.data).toEqual({ viewer: { settings: { darkMode: true, autoSave: true } } });
    // Prisma names every table with its schema; a hand-written statement does not.
    expect(statements).toHaveLength(2);
    expect(statements.filter((text) => text.includes('"public".'))).toEqual([]);
  });
});

describe('profile', () => {
  it('changes first and last name and answers the profile', async () => {
    const res = await call(alice, 'PATCH', '/api/user/profile', { firstName: ' Ada ', lastName: 'Lovelace' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: alice.id, firstName: 'Ada', lastName: 'Lovelace', email: alice.email });
    const me = await (await app.request('/api/auth/user', { cookie: alice.cookie })).json();
    expect(me).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    // Empty clears.
    expect((await call(alice, 'PATCH', '/api/user/profile', { lastName: '' })).body.lastName).toBeNull();
  });

  it('refuses bad input with a 400', async () => {
    expect((await call(alice, 'PATCH', '/api/user/profile', { firstName: 42 })).status).toBe(400);
    expect((await call(alice, 'PATCH', '/api/user/profile', { firstName: 'x'.repeat(101) })).body.message).toBe(
      'First name is too long.',
    );
    expect((await call(alice, 'PATCH', '/api/user/profile', '{')).status).toBe(400);
  });

  it('refuses a blank first name (REST 400, GraphQL error) and keeps the one it had', async () => {
    await call(alice, 'PATCH', '/api/user/profile', { firstName: 'Ada' });
    for (const firstName of ['', '   ', null]) {
      const res = await call(alice, 'PATCH', '/api/user/profile', { firstName, lastName: 'Byron' });
      expect(res, JSON.stringify(firstName)).toMatchObject({
        status: 400,
        body: { message: 'First name is required.' },
      });
    }
    const answer = await graphql(
      app,
      alice.cookie,
      `mutation { updateProfile(firstName: " ") { __typename ... on Error { message } } }`,
    );
    expect(answer.data?.updateProfile).toEqual({ __typename: 'ValidationError', message: 'First name is required.' });
    const me = await (await app.request('/api/auth/user', { cookie: alice.cookie })).json();
    expect(me).toMatchObject({ firstName: 'Ada' });
    // Only the last name: the first stays as it is.
    expect((await call(alice, 'PATCH', '/api/user/profile', { lastName: 'King' })).status).toBe(200);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, CookieJar, person, send, sendBody, signedInUser, signIn } from '../../test/harness.ts';
import { freePort, runScript, signInOver, startServer } from '../../test/server-process.ts';
import { tokenMailedTo } from '../../test/mail.ts';
import { put } from '../storage/testing.ts';
import { auditCsvRow, csvField, setAdministratorByEmail } from './rules.ts';

// Ana signs up first on a fresh instance, so she is its administrator; Ben and Cy are not.
let app: TestApp, ana: SignedInUser, ben: SignedInUser, cy: SignedInUser;
beforeAll(async () => {
  [app, ana, ben, cy] = await appWithPeople({ name: 'Ana Admin' }, { name: 'Ben Zed' }, anyone);
});
afterAll(() => app.close());

const db = () => app.database.prisma;

async function auditOf(action: string, subjectId?: string) {
  return db().auditEvent.findMany({
    where: { action, ...(subjectId ? { subjectId } : {}) },
    orderBy: { createdAt: 'desc' },
  });
}

describe('who is an administrator', () => {
  it('the first account of a fresh instance is; the ones after it are not', async () => {
    const users = await db().user.findMany({
      where: { id: { in: [ana.id, ben.id, cy.id] } },
      select: { id: true, isAdmin: true },
    });
    expect(Object.fromEntries(users.map((u) => [u.id, u.isAdmin]))).toEqual({
      [ana.id]: true,
      [ben.id]: false,
      [cy.id]: false,
    });
    expect((await send(app, ana.cookie, 'GET', '/api/auth/user')).body).toMatchObject({ isAdmin: true });
    expect((await send(app, ben.cookie, 'GET', '/api/auth/user')).body).toMatchObject({ isAdmin: false });
  });

  it('two first sign-ups at once make one administrator', async () => {
    const [fresh, ...rest] = await appWithPeople();
    expect(rest).toEqual([]);
    try {
      const people = Array.from({ length: 4 }, (_, i) => ({
        name: `Racer ${i}`,
        email: `racer${i}@example.com`,
        password: 'correct horse battery',
      }));
      await Promise.all(people.map((who) => sendBody(fresh, undefined, 'POST', '/api/auth/signup', who)));
      expect(await fresh.database.prisma.user.count({ where: { isAdmin: true } })).toBe(1);
    } finally {
      await fresh.close();
    }
  });
});

describe('the console is hidden from everyone else', () => {
  function adminRoutes() {
    return [
      ...new Set(
        app.routes
          .filter((r) => r.path.startsWith('/api/admin/') && r.method !== 'ALL')
          .map((r) => `${r.method} ${r.path.replace(':id', ben.id).replace(':queue', 'reminders')}`),
      ),
    ];
  }

  it('answers 404 to a person who is not an administrator, and 401 signed out, on every path', async () => {
    const routes = adminRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const route of routes) {
      const [method = 'GET', path = ''] = route.split(' ');
      const body = method === 'GET' ? undefined : { disabled: true, allowSignup: false };
      const stranger = await send(app, cy.cookie, method, path, body);
      expect(stranger.status, route).toBe(404);
      expect(stranger.body.message).toBe('Resource not found');
      expect((await sendBody(app, undefined, method, path, body)).status, route).toBe(401);
    }
    // Nothing was changed by the refused requests.
    expect(await db().user.findUniqueOrThrow({ where: { id: ben.id } })).toMatchObject({ disabledAt: null });
    expect(await db().instanceSettings.findUnique({ where: { id: 1 } })).toBeNull();
  });
});

describe('GET /api/admin/users', () => {
  it('lists every account with what the console shows', async () => {
    const { status, body } = await send(app, ana.cookie, 'GET', '/api/admin/users');
    expect(status).toBe(200);
    expect(body.map((u: { id: string }) => u.id)).toEqual([ana.id, ben.id, cy.id]);
    expect(body[0]).toMatchObject({
      id: ana.id,
      email: ana.email,
      name: 'Ana Admin',
      emailVerified: expect.any(Boolean),
      twoFactorEnabled: false,
      isAdmin: true,
      disabled: false,
      usedBytes: 0,
      quotaBytes: 10 * 1024 ** 3,
      customQuotaBytes: null,
    });
    expect(new Date(body[0].createdAt).getTime()).toBeGreaterThan(Date.now() - 600_000);
    expect(new Date(body[0].lastSeenAt).getTime()).toBeGreaterThan(Date.now() - 600_000);
  });

  it('searches addresses and names whatever the case, a page at a time', async () => {
    const byName = await app.request('/api/admin/users?search=ben%20ZED', { cookie: ana.cookie });
    expect(((await byName.json()) as { id: string }[]).map((u) => u.id)).toEqual([ben.id]);
    const byEmail = await send(app, ana.cookie, 'GET', `/api/admin/users?search=${cy.email.toUpperCase()}`);
    expect(byEmail.body.map((u: { id: string }) => u.id)).toEqual([cy.id]);
    // LIKE's wildcards are only characters.
    expect((await send(app, ana.cookie, 'GET', '/api/admin/users?search=%25')).body).toEqual([]);
    const page = await app.request('/api/admin/users?limit=2&offset=1', { cookie: ana.cookie });
    expect(page.headers.get('x-total-count')).toBe('3');
    expect(((await page.json()) as { id: string }[]).map((u) => u.id)).toEqual([ben.id, cy.id]);
    expect((await send(app, ana.cookie, 'GET', '/api/admin/users?limit=100000')).status).toBe(400);
  });
});

describe('PATCH /api/admin/users/:id', () => {
  it('disabling ends the person’s sessions and sign-ins; enabling lets them back; their data stays', async () => {
    const dana = await signedInUser(app, { name: 'Dana Leaver' });
    const project = await send(app, dana.cookie, 'POST', '/api/projects', { name: 'Dana’s shoot' });
    expect(project.status).toBe(201);

    const disabled = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${dana.id}`, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: dana.id, disabled: true });
    expect((await sendBody(app, dana.cookie, 'GET', '/api/auth/user')).status).toBe(401);
    const { jar } = await signIn(app, dana);
    expect((await sendBody(app, jar.header, 'GET', '/api/auth/user')).status).toBe(401);

    const enabled = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${dana.id}`, { disabled: false });
    expect(enabled.body).toMatchObject({ disabled: false });
    const again = await signIn(app, dana, new CookieJar());
    expect((await send(app, again.jar.header, 'GET', '/api/auth/user')).body).toMatchObject({ id: dana.id });
    expect(await db().project.findUnique({ where: { id: project.body.id } })).toMatchObject({ ownerId: dana.id });

    const [off] = await auditOf('admin_user_disabled', dana.id);
    expect(off).toMatchObject({ actorId: ana.id, actorEmail: ana.email, subjectEmail: dana.email });
    expect(await auditOf('admin_user_enabled', dana.id)).toHaveLength(1);
  });

  it('refuses an administrator disabling or demoting themselves', async () => {
    const self = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ana.id}`, { disabled: true });
    expect(self).toMatchObject({ status: 409, body: { message: 'You cannot disable your own account.' } });
    const demote = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ana.id}`, { admin: false });
    expect(demote.status).toBe(409);
    expect(demote.body.message).toMatch(/your own administrator role/);
    expect(await db().user.findUniqueOrThrow({ where: { id: ana.id } })).toMatchObject({
      isAdmin: true,
      disabledAt: null,
    });
  });

  it('makes and revokes administrators, and never leaves the instance without one', async () => {
    const granted = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ben.id}`, { admin: true });
    expect(granted).toMatchObject({ status: 200, body: { isAdmin: true } });
    expect((await send(app, ben.cookie, 'GET', '/api/admin/users')).status).toBe(200);
    // Ben revokes Ana; now Ben is the last one, and stays one.
    expect((await send(app, ben.cookie, 'PATCH', `/api/admin/users/${ana.id}`, { admin: false })).status).toBe(200);
    expect((await send(app, ana.cookie, 'GET', '/api/admin/users')).status).toBe(404);
    await expect(setAdministratorByEmail(db(), ben.email, false)).rejects.toThrow(/last administrator/);
    // Back as it was.
    expect((await send(app, ben.cookie, 'PATCH', `/api/admin/users/${ana.id}`, { admin: true })).status).toBe(200);
    expect((await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ben.id}`, { admin: false })).status).toBe(200);
    expect((await send(app, ben.cookie, 'GET', '/api/admin/instance')).status).toBe(404);

    expect((await auditOf('admin_granted', ben.id))[0]).toMatchObject({ actorId: ana.id });
    expect((await auditOf('admin_revoked', ana.id))[0]).toMatchObject({ actorId: ben.id });
  });

  it('validates what it is sent, and answers 404 for an unknown person', async () => {
    const bad = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ben.id}`, { quotaBytes: -1 });
    expect(bad).toMatchObject({ status: 400, body: { message: 'quotaBytes must not be negative.' } });
    expect((await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ben.id}`, { role: 'root' })).status).toBe(400);
    const unknown = await send(app, ana.cookie, 'PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', {
      disabled: true,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('POST /api/admin/users/:id/password-reset', () => {
  it('e-mails the person a reset link, and records who sent it', async () => {
    const sent = await send(app, ana.cookie, 'POST', `/api/admin/users/${cy.id}/password-reset`);
    expect(sent).toMatchObject({ status: 202, body: { sent: true } });
    expect(await tokenMailedTo(app, cy.email, '/reset-password')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await auditOf('admin_password_reset_sent', cy.id))[0]).toMatchObject({
      actorId: ana.id,
      subjectEmail: cy.email,
    });
    const unknown = '/api/admin/users/00000000-0000-4000-8000-000000000000/password-reset';
    expect((await send(app, ana.cookie, 'POST', unknown)).status).toBe(404);
  });
});

describe('a quota for one person', () => {
  it('holds them to it while everyone else keeps the instance’s', async () => {
    const set = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ben.id}`, { quotaBytes: 1024 });
    expect(set.body).toMatchObject({ quotaBytes: 1024, customQuotaBytes: 1024 });
    const bytes = 'x'.repeat(2000);
    const refused = await put(app, ben, bytes);
    expect(refused.response.status).toBe(413);
    expect(((await refused.response.json()) as { message: string }).message).toMatch(
      /^Storage quota exceeded: 0 Bytes of 1\.00 KB used/,
    );
    expect((await send(app, ben.cookie, 'GET', '/api/storage/usage')).body).toEqual({ usedBytes: 0, quotaBytes: 1024 });
    // Full: not even an upload URL once a file of the whole quota is in.
    expect((await put(app, ben, 'y'.repeat(1024))).response.status).toBe(200);
    expect((await send(app, ben.cookie, 'POST', '/api/objects/upload')).status).toBe(413);
    expect((await put(app, cy, bytes)).response.status).toBe(200);

    const [row] = await auditOf('admin_quota_set', ben.id);
    expect(row).toMatchObject({ actorId: ana.id, metadata: { quotaBytes: 1024, previousQuotaBytes: null } });
    // null: back to the instance's quota.
    const reset = await send(app, ana.cookie, 'PATCH', `/api/admin/users/${ben.id}`, { quotaBytes: null });
    expect(reset.body).toMatchObject({ quotaBytes: 10 * 1024 ** 3, customQuotaBytes: null, usedBytes: 1024 });
    expect((await put(app, ben, bytes)).response.status).toBe(200);
  });
});

describe('the audit log', () => {
  it('lists events newest first, by kind, a page at a time', async () => {
    await send(app, ana.cookie, 'PATCH', `/api/admin/users/${cy.id}`, { quotaBytes: 5_000_000 });
    await send(app, ana.cookie, 'PATCH', `/api/admin/users/${cy.id}`, { quotaBytes: 6_000_000 });
    const { body } = await send(app, ana.cookie, 'GET', '/api/admin/audit?action=admin_quota_set&limit=2');
    expect(body).toHaveLength(2);
    expect(body.map((e: { metadata: { quotaBytes: number } }) => e.metadata.quotaBytes)).toEqual([
      6_000_000, 5_000_000,
    ]);
    const older = await send(app, ana.cookie, 'GET', `/api/admin/audit?action=admin_quota_set&before=${body[1].id}`);
    expect(older.body.every((e: { action: string }) => e.action === 'admin_quota_set')).toBe(true);
    expect(older.body.map((e: { id: string }) => e.id)).not.toContain(body[1].id);
    expect((await send(app, ana.cookie, 'GET', '/api/admin/audit?action=nope')).status).toBe(400);
  });

  it('exports CSV with a header row, quoting, and no formulas', async () => {
    await db().auditEvent.create({
      data: {
        action: 'sign_in_failed',
        ipAddress: '203.0.113.9',
        userAgent: '=HYPERLINK("http://evil.example","click"), "quoted"\nnext line',
        metadata: { email: '+cmd@example.com' },
      },
    });
    const response = await app.request('/api/admin/audit?format=csv&action=sign_in_failed', { cookie: ana.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="scoutbase-audit-.*\.csv"$/);
    const text = await response.text();
    const [header, first] = text.split('\r\n');
    expect(header).toBe('createdAt,action,actorEmail,actorId,subjectEmail,subjectId,ipAddress,userAgent,metadata');
    expect(first).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,sign_in_failed,,,,,203\.0\.113\.9,/);
    expect(text).toContain(
      `,"'=HYPERLINK(""http://evil.example"",""click""), ""quoted""\nnext line","{""email"":""+cmd@example.com""}"\r\n`,
    );
    expect(csvField('-1+1')).toBe("'-1+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('plain')).toBe('plain');
    expect(
      auditCsvRow({
        id: 'x',
        createdAt: new Date('2026-01-02T03:04:05.000Z'),
        action: 'sign_in',
        actorId: null,
        actorEmail: 'a,b@example.com',
        subjectId: null,
        subjectEmail: null,
        ipAddress: null,
        userAgent: null,
        metadata: {},
      }),
    ).toBe('2026-01-02T03:04:05.000Z,sign_in,"a,b@example.com",,,,,,{}\r\n');
  });

  it('exports JSON', async () => {
    const response = await app.request('/api/admin/audit?format=json&action=admin_quota_set', { cookie: ana.cookie });
    expect(response.headers.get('content-disposition')).toMatch(/\.json"$/);
    const rows = (await response.json()) as { action: string }[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.action === 'admin_quota_set')).toBe(true);
  });
});

describe('the instance', () => {
  it('tells what runs, on what, and how full', async () => {
    const { status, body } = await send(app, ana.cookie, 'GET', '/api/admin/instance');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      version: expect.any(String),
      databaseKind: expect.stringMatching(/^(embedded|postgres)$/),
      storage: { backend: 'local', usedBytes: expect.any(Number) },
      allowSignup: true,
      requireTwoFactor: false,
    });
    expect(body.storage.usedBytes).toBeGreaterThanOrEqual(3000);
    expect(body.jobs.queues.length).toBeGreaterThan(0);
    expect(body.jobs.queues[0]).toMatchObject({ name: expect.any(String), failed: expect.any(Number) });
  });

  it('turns open sign-up off and on, and sign-up obeys it', async () => {
    const off = await send(app, ana.cookie, 'PATCH', '/api/admin/instance', { allowSignup: false });
    expect(off).toMatchObject({ status: 200, body: { allowSignup: false } });
    const refused = await sendBody(app, undefined, 'POST', '/api/auth/signup', {
      name: 'Late Comer',
      email: 'late@example.com',
      password: 'correct horse battery',
    });
    expect(refused.status).toBe(403);
    expect((await send(app, ana.cookie, 'PATCH', '/api/admin/instance', { allowSignup: null })).body).toMatchObject({
      allowSignup: true,
    });
    const [row] = await auditOf('admin_instance_settings');
    expect(row).toMatchObject({ actorId: ana.id, metadata: { allowSignup: null, previous: { allowSignup: false } } });
    expect((await send(app, ana.cookie, 'PATCH', '/api/admin/instance', { allowSignup: 'yes' })).status).toBe(400);
  });

  it('retries a queue’s failed jobs, and knows no queue it does not have', async () => {
    const { body } = await send(app, ana.cookie, 'GET', '/api/admin/instance');
    const queue = body.jobs.queues[0].name as string;
    const retried = await send(app, ana.cookie, 'POST', `/api/admin/jobs/${queue}/retry`);
    expect(retried).toMatchObject({ status: 200, body: { queue, retried: 0 } });
    expect((await auditOf('admin_job_retried'))[0]).toMatchObject({ actorId: ana.id, metadata: { queue } });
    expect((await send(app, ana.cookie, 'POST', '/api/admin/jobs/no-such-queue/retry')).status).toBe(404);
  });
});

describe('pnpm user:create --admin and pnpm user:admin', () => {
  it('make and revoke administrators, with no server running and through the running one', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'scoutbase-admin-cli-'));
    const env = { DATA_DIR: dataDir, NODE_ENV: 'development', WEB_DIST_DIR: path.join(dataDir, 'none') };
    const create = (who: ReturnType<typeof person>, ...more: string[]) =>
      runScript(
        'scripts/user-create.ts',
        ['--email', who.email, '--password', who.password, '--name', who.name, ...more],
        env,
      );
    const admin = (email: string, ...more: string[]) =>
      runScript('scripts/user-admin.ts', ['--email', email, ...more], env);
    const [first, second] = [person(), person()];
    try {
      // No server: the command opens the data folder itself.
      const made = await create(first, '--admin');
      expect(made).toMatchObject({ code: 0, stderr: '' });
      expect(made.stdout).toContain(`Created ${first.email}`);
      expect(made.stdout).toContain('an administrator');

      // With the server running, through its admin socket: it knows at once.
      const server = await startServer({ ...env, PORT: String(await freePort()) });
      try {
        const plain = await create(second);
        expect(plain.code).toBe(0);
        expect(plain.stdout).not.toContain('administrator');
        const last = await admin(first.email, '--revoke');
        expect(last.code).toBe(1);
        expect(last.stderr.trim()).toBe(
          'This is the last administrator of the instance. Make someone else an administrator first.',
        );
        const granted = await admin(second.email.toUpperCase());
        expect(granted).toMatchObject({ code: 0, stderr: '' });
        expect(granted.stdout.trim()).toBe(`${second.email} is now an administrator.`);
        const jar = await signInOver(server.origin, second);
        const users = await fetch(`${server.origin}/api/admin/users`, { headers: { cookie: jar.header } });
        expect(users.status).toBe(200);
        expect((await admin(first.email, '--revoke')).stdout.trim()).toBe(
          `${first.email} is now not an administrator.`,
        );
        expect((await admin(second.email, '--revoke')).code).toBe(1);
        const unknown = await admin('nobody@example.com');
        expect(unknown).toMatchObject({ code: 1 });
        expect(unknown.stderr.trim()).toBe('An account for nobody@example.com not found');
        const revoked = await fetch(`${server.origin}/api/admin/instance`, {
          headers: { cookie: (await signInOver(server.origin, first)).header },
        });
        expect(revoked.status).toBe(404);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 480_000);
});

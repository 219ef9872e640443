import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { AdminUser, InstanceReport } from './adminApi.ts';
import { AuditSection } from './AuditSection.tsx';
import { InstanceSection } from './InstanceSection.tsx';
import { PeopleSection } from './PeopleSection.tsx';

// Headless UI's menus watch their button's size; jsdom has no ResizeObserver.
class NoResizes {
  observe() {}
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('ResizeObserver', NoResizes);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const GB = 1024 ** 3;

function person(overrides: Partial<AdminUser>): AdminUser {
  return {
    id: 'u1',
    email: 'ana@example.com',
    name: 'Ana Admin',
    createdAt: new Date().toISOString(),
    lastSeenAt: new Date().toISOString(),
    emailVerified: true,
    twoFactorEnabled: false,
    isAdmin: false,
    disabled: false,
    usedBytes: 0,
    quotaBytes: 10 * GB,
    customQuotaBytes: null,
    ...overrides,
  };
}

type Call = { method: string; url: string; body: unknown };

/** A fetch that answers by path and keeps what it was asked. */
function fakeApi(answer: (call: Call) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = { method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(call);
      return answer(call);
    }),
  );
  return calls;
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json', ...init.headers } });

it('lists people with their badges and storage, and disables one after confirming', async () => {
  const ana = person({ id: 'me', isAdmin: true });
  const ben = person({ id: 'ben', email: 'ben@example.com', name: 'Ben Crew', usedBytes: GB, emailVerified: false });
  const calls = fakeApi((call) => {
    if (call.method === 'PATCH') return json({ ...ben, disabled: true });
    return json([ana, ben], { headers: { 'x-total-count': '2' } });
  });
  render(<PeopleSection viewerId="me" onNotAdmin={() => {}} />);
  await screen.findByText('ben@example.com');
  expect(screen.getByRole('heading', { name: 'People (2)' })).toBeTruthy();
  expect(screen.getByText('You')).toBeTruthy();
  expect(screen.getByText('Admin')).toBeTruthy();
  expect(screen.getByText('Unverified')).toBeTruthy();
  expect(screen.getByText('1 GB of 10 GB (instance default)')).toBeTruthy();

  // No way to disable or demote oneself.
  fireEvent.click(screen.getByRole('button', { name: 'Actions for ana@example.com' }));
  expect(await screen.findByRole('menuitem', { name: 'Send password reset link' })).toBeTruthy();
  expect(screen.queryByRole('menuitem', { name: 'Disable account' })).toBeNull();
  expect(screen.queryByRole('menuitem', { name: 'Revoke administrator' })).toBeNull();
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

  fireEvent.click(screen.getByRole('button', { name: 'Actions for ben@example.com' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Disable account' }));
  const dialog = await screen.findByRole('dialog');
  expect(dialog.textContent).toContain('signed out everywhere at once');
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
  });
  await screen.findByText('Disabled');
  expect(calls.at(-1)).toMatchObject({ method: 'PATCH', url: '/api/admin/users/ben', body: { disabled: true } });
});

it('sets a quota in MB and says what is wrong with a bad one', async () => {
  const ben = person({ id: 'ben', email: 'ben@example.com', name: 'Ben Crew' });
  const calls = fakeApi((call) =>
    call.method === 'PATCH'
      ? json({ ...ben, quotaBytes: 5 * 1024 * 1024, customQuotaBytes: 5 * 1024 * 1024 })
      : json([ben], { headers: { 'x-total-count': '1' } }),
  );
  render(<PeopleSection viewerId="me" onNotAdmin={() => {}} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Actions for ben@example.com' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Set storage quota' }));
  fireEvent.click(await screen.findByLabelText('Use the instance default'));
  fireEvent.change(screen.getByLabelText('Quota'), { target: { value: 'lots' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save quota' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Enter a size of 0 or more.');
  fireEvent.change(screen.getByLabelText('Quota'), { target: { value: '5' } });
  fireEvent.change(screen.getByLabelText('Unit'), { target: { value: 'MB' } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save quota' }));
  });
  await screen.findByText('0 Bytes of 5 MB (set for this person)');
  expect(calls.at(-1)).toMatchObject({ method: 'PATCH', body: { quotaBytes: 5 * 1024 * 1024 } });
});

it('tells the screen when the server says the viewer is no administrator', async () => {
  fakeApi(() => new Response(JSON.stringify({ message: 'Resource not found' }), { status: 404 }));
  const onNotAdmin = vi.fn();
  render(<PeopleSection viewerId="me" onNotAdmin={onNotAdmin} />);
  await waitFor(() => expect(onNotAdmin).toHaveBeenCalled());
});

it('shows the audit log with export links for the chosen kind', async () => {
  const calls = fakeApi(() =>
    json([
      {
        id: 'e1',
        createdAt: new Date().toISOString(),
        action: 'admin_user_disabled',
        actorEmail: 'ana@example.com',
        subjectEmail: 'ben@example.com',
        ipAddress: '203.0.113.9',
        userAgent: null,
        metadata: {},
      },
    ]),
  );
  render(<AuditSection onNotAdmin={() => {}} />);
  await screen.findByText('Admin user disabled');
  expect(screen.getByText('ana@example.com → ben@example.com · 203.0.113.9')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Event'), { target: { value: 'sign_in_failed' } });
  await waitFor(() => expect(calls.at(-1)?.url).toBe('/api/admin/audit?action=sign_in_failed&limit=50'));
  expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
    '/api/admin/audit?action=sign_in_failed&format=csv',
  );
  expect(screen.getByRole('link', { name: 'Export JSON' }).getAttribute('href')).toBe(
    '/api/admin/audit?action=sign_in_failed&format=json',
  );
});

it('shows the instance, turns open sign-up off and retries a failed queue', async () => {
  const report: InstanceReport = {
    version: 'v1.2.0-3-gabc123',
    versionSource: 'git',
    database: 'embedded (PGlite)',
    storage: { backend: 'local', usedBytes: 3 * GB, defaultQuotaBytes: 10 * GB },
    people: 4,
    jobs: {
      queues: [{ name: 'mail.send', queued: 0, active: 0, failed: 2, oldestQueuedSeconds: null }],
      failures: [],
    },
    allowSignup: true,
    allowSignupDefault: true,
    requireTwoFactor: false,
  };
  const calls = fakeApi((call) => {
    if (call.url.endsWith('/retry')) return json({ queue: 'mail.send', retried: 2 });
    if (call.method === 'PATCH') return json({ ...report, allowSignup: false });
    return json(report);
  });
  render(<InstanceSection onNotAdmin={() => {}} />);
  await screen.findByText('v1.2.0-3-gabc123');
  expect(screen.getByText('3 GB by 4 people')).toBeTruthy();
  expect(screen.getByText('2 failed')).toBeTruthy();
  await act(async () => {
    fireEvent.click(screen.getByRole('switch', { name: 'Open sign-up' }));
  });
  await waitFor(() =>
    expect(screen.getByRole('switch', { name: 'Open sign-up' }).getAttribute('aria-checked')).toBe('false'),
  );
  expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
    url: '/api/admin/instance',
    body: { allowSignup: false },
  });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Retry failed jobs of mail.send' }));
  });
  await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/jobs/mail.send/retry')).toBe(true));
});

import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../ui/toast.tsx';
import { ImportDialog } from './ImportDialog.tsx';

// The OAuth side of the dialog (the popup and its message) and the selection rules; the server
// folder path runs end to end in e2e/imports.e2e.ts.

interface Route {
  status?: number;
  body: unknown;
}

function stubApi(routes: Record<string, Route | ((init?: RequestInit) => Route)>) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const route = routes[`${method} ${url}`];
      const answer = typeof route === 'function' ? route(init) : route;
      if (!answer) return new Response(JSON.stringify({ message: 'not stubbed' }), { status: 404 });
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
  return calls;
}

const drive = { id: 'google-drive', name: 'Google Drive', available: true, connected: false, account: null };
const sources = [
  { id: 'local', name: 'Server folder', available: true, connected: true, account: null },
  drive,
  { id: 'dropbox', name: 'Dropbox', available: false, connected: false, account: null },
];
const driveItems = [
  { id: 'fld', name: 'Scouting', type: 'folder', size: null, modifiedAt: null },
  { id: 'img1', name: 'Warehouse.jpg', type: 'image', size: 2048, modifiedAt: null },
];

function fakePopup() {
  const popup = { closed: false };
  const open = vi.fn(() => popup as unknown as Window);
  vi.stubGlobal('open', open);
  return {
    open,
    popup,
    answer(ok: boolean, source = 'google-drive') {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'scoutbase:import-connection', source, ok },
        }),
      );
    },
  };
}

/** Opens the dialog and picks Google Drive, whose connection then waits in a (fake) popup. */
async function pickDriveInPopup() {
  const popup = fakePopup();
  render(<ImportDialog open onClose={() => {}} />);
  fireEvent.click(await screen.findByRole('button', { name: /Google Drive/ }));
  return popup;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ImportDialog with an OAuth source', () => {
  it('connects in a popup, lists, refuses folders, and imports the chosen files', async () => {
    const calls = stubApi({
      'GET /api/imports/sources': { body: sources },
      'GET /api/imports/google-drive/items': { body: driveItems },
      'POST /api/imports': {
        status: 202,
        body: { id: 'job1', status: 'running', total: 1, done: 0, imported: 0, failed: [], fileIds: [] },
      },
      'GET /api/imports/job1': {
        body: { id: 'job1', status: 'completed', total: 1, done: 1, imported: 1, failed: [], fileIds: ['f1'] },
      },
      'GET /api/files/conflicts?folderId=folder-1&names=Warehouse.jpg': { body: { conflicts: [] } },
    });
    const popup = fakePopup();
    const onImported = vi.fn();
    const onClose = vi.fn();
    render(
      <>
        <ImportDialog open onClose={onClose} folderId="folder-1" onImported={onImported} />
        <Toaster />
      </>,
    );
    expect((await screen.findByRole('button', { name: /Dropbox/ })).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Google Drive/ }));
    expect(popup.open).toHaveBeenCalledWith(
      '/api/imports/google-drive/connect',
      expect.any(String),
      expect.any(String),
    );
    await screen.findByText('Connecting to Google Drive...');
    act(() => popup.answer(true));

    await screen.findByText('Warehouse.jpg');
    // The folder has no checkbox: it opens instead.
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Open folder Scouting' })).toBeTruthy();
    const importButton = screen.getByRole('button', { name: /^Import/ });
    expect(importButton.hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Import (1)' }));
    await screen.findByText('Files imported', {}, { timeout: 3000 });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      source: 'google-drive',
      itemIds: ['img1'],
      folderId: 'folder-1',
      galleryId: null,
      onConflict: 'keepBoth',
      onConflictByItem: {},
    });
    expect(onImported).toHaveBeenCalledWith(expect.objectContaining({ imported: 1 }));
    expect(onClose).toHaveBeenCalled();
  });

  it('asks about a name already taken in the folder and imports with the answer', async () => {
    const calls = stubApi({
      'GET /api/imports/sources': { body: sources.map((s) => ({ ...s, connected: s.available })) },
      'GET /api/imports/google-drive/items': { body: driveItems },
      'GET /api/files/conflicts?names=Warehouse.jpg': {
        body: {
          conflicts: [
            {
              name: 'Warehouse.jpg',
              existing: { id: 'old', name: 'Warehouse.jpg' },
              keepBothName: 'Warehouse (1).jpg',
            },
          ],
        },
      },
      'POST /api/imports': {
        status: 202,
        body: { id: 'job2', status: 'running', total: 1, done: 0, imported: 0, failed: [], fileIds: [] },
      },
      'GET /api/imports/job2': {
        body: {
          id: 'job2',
          status: 'completed',
          total: 1,
          done: 1,
          imported: 1,
          failed: [],
          fileIds: ['old'],
          replaced: ['Warehouse.jpg'],
          renamed: [],
          skipped: [],
        },
      },
    });
    render(
      <>
        <ImportDialog open onClose={() => {}} kind="media" />
        <Toaster />
      </>,
    );
    fireEvent.click(await screen.findByRole('button', { name: /Google Drive/ }));
    await screen.findByText('Warehouse.jpg');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Import (1)' }));
    await screen.findByText('File already exists');
    expect(screen.getByTestId('upload-conflict').textContent).toContain('saves the new one as Warehouse (1).jpg');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    await screen.findByText('Replaced Warehouse.jpg.', {}, { timeout: 3000 });
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      onConflict: 'keepBoth',
      onConflictByItem: { img1: 'replace' },
    });
  });

  it('shows Connection failed with Retry Connection when the popup says no, and recovers on retry', async () => {
    stubApi({
      'GET /api/imports/sources': { body: sources },
      'GET /api/imports/google-drive/items': { body: [] },
    });
    const popup = await pickDriveInPopup();
    act(() => popup.answer(false));
    await screen.findByText('Connection failed. Please try again.');

    fireEvent.click(screen.getByRole('button', { name: 'Retry Connection' }));
    act(() => popup.answer(true));
    await screen.findByText('No files found');
    expect(popup.open).toHaveBeenCalledTimes(2);
  });

  it('treats a popup closed by hand as a failed connection', async () => {
    stubApi({ 'GET /api/imports/sources': { body: sources } });
    const popup = await pickDriveInPopup();
    popup.popup.closed = true;
    await screen.findByText('Connection failed. Please try again.', {}, { timeout: 3000 });
  });

  it('asks the server when the popup closes without a word (a provider that cuts the opener)', async () => {
    let asked = 0;
    stubApi({
      'GET /api/imports/sources': () => {
        asked += 1;
        return {
          body: asked === 1 ? sources : sources.map((s) => (s.id === 'google-drive' ? { ...s, connected: true } : s)),
        };
      },
      'GET /api/imports/google-drive/items': { body: driveItems },
    });
    const popup = await pickDriveInPopup();
    popup.popup.closed = true;
    await screen.findByText('Warehouse.jpg', {}, { timeout: 3000 });
  });

  it('shows Connection failed when the source cannot be reached', async () => {
    stubApi({
      'GET /api/imports/sources': { body: sources },
      'GET /api/imports/local/items': { status: 502, body: { message: 'Connection failed. Please try again.' } },
    });
    render(<ImportDialog open onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: /Server folder/ }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Connection failed. Please try again.'));
    expect(screen.getByRole('button', { name: 'Retry Connection' })).toBeTruthy();
  });
});

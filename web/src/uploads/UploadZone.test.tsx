import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { RelayEnvironmentProvider } from 'react-relay/hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEnvironment } from '../relay/environment.ts';
import type { Transport } from './transport.ts';
import { UploadZone } from './UploadZone.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * The GraphQL server's createFile: `taken` names already exist at the top level. Records what each
 * upload asked for and answers as the server does (keep both renames, replace makes version 2).
 */
function filingServer(taken: string[] = []) {
  const filed: { name: string; onConflict: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const { variables } = JSON.parse(String(init.body)) as {
        variables: { input: { name: string; objectUrl: string; mimeType: string | null }; onConflict: string };
      };
      const { name, objectUrl, mimeType } = variables.input;
      const onConflict = variables.onConflict;
      filed.push({ name, onConflict });
      const clash = taken.includes(name);
      const data = {
        id: btoa(`File:f-${name}`),
        name: clash && onConflict === 'KEEP_BOTH' ? name.replace(/(\.[^.]*)$/, ' (1)$1') : name,
        size: 4,
        mimeType: mimeType ?? 'application/octet-stream',
        objectPath: new URL(objectUrl, 'http://x').pathname,
        currentVersion: clash && onConflict === 'REPLACE' ? 2 : 1,
        metadata: {},
        viewerCanEdit: true,
        createdAt: '2026-11-27T10:00:00.000Z',
      };
      return Response.json({ data: { createFile: { __typename: 'MutationCreateFileSuccess', data } } });
    }),
  );
  return filed;
}

let server: ReturnType<typeof filingServer>;
beforeEach(() => {
  server = filingServer();
});

function renderZone(props: ComponentProps<typeof UploadZone>) {
  render(
    <RelayEnvironmentProvider environment={createEnvironment()}>
      <UploadZone {...props} />
    </RelayEnvironmentProvider>,
  );
}

let targets = 0;
/** What the server answers for a batch's upload URLs (POST /api/objects/uploads?count=n), else null. */
function batchOfTargets(url: string) {
  const count = /^\/api\/objects\/uploads\?count=(\d+)$/.exec(url)?.[1];
  if (!count) return null;
  const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
  return {
    uploads: Array.from({ length: Number(count) }, () => ({
      uploadURL: `/objects/uploads/b${targets++}?token=t`,
      maxSize: 1000,
      expiresAt,
    })),
  };
}

function transport(putGate: Promise<void>): Transport {
  return {
    request: async <T,>(_method: string, url: string) => {
      if (url === '/api/objects/upload') return { uploadURL: '/objects/uploads/u?token=t' } as T;
      const batch = batchOfTargets(url);
      if (batch) return batch as T;
      if (url.startsWith('/api/files/conflicts')) return { conflicts: [] } as T;
      return { tags: [] } as T;
    },
    put: async (_url, file, onProgress) => {
      onProgress(file.size / 2, file.size);
      await putGate;
    },
  };
}

async function drop(files: File[]) {
  const input = screen.getByLabelText('Choose files to upload');
  await act(async () => {
    fireEvent.change(input, { target: { files } });
  });
}

/** A server that keeps files at UploadThing: the bytes go through `direct`, never `put`. */
function uploadthingTransport(directGate: Promise<void>, analysisGate: Promise<void>) {
  const requested: string[] = [];
  const put = vi.fn(async () => {});
  const direct = vi.fn(async (_endpoint: string, file: File, onProgress: (l: number, t: number) => void) => {
    onProgress(file.size / 2, file.size);
    await directGate;
    return {
      ok: true as const,
      uploadURL: '/objects/uploads/d',
      objectPath: '/objects/uploads/d',
      uploadId: 'd',
      size: file.size,
      mimeType: 'image/png',
    };
  });
  const value: Transport = {
    request: async <T,>(_method: string, url: string) => {
      requested.push(url);
      if (url === '/api/storage/config')
        return { backend: 'uploadthing', uploadthingUrl: '/api/uploadthing', maxUploadSize: 1000 } as T;
      if (url.startsWith('/api/files/conflicts')) return { conflicts: [] } as T;
      await analysisGate;
      return { tags: [] } as T;
    },
    put,
    direct,
  };
  return { value, requested, put, direct };
}

function gate() {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('UploadZone', () => {
  it('lists rejected files with the spec messages', async () => {
    renderZone({ transport: transport(Promise.resolve()) });
    const big = new File(['x'], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 + 1 });
    await drop([new File(['x'], 'tool.exe', { type: 'application/x-msdownload' }), big]);
    const alert = await screen.findByText('Some files were rejected:');
    const text = alert.parentElement?.textContent ?? '';
    expect(text).toMatch(/tool\.exe: File type must be one of/);
    expect(text).toMatch(/huge\.mp4: File is larger than 52428800 bytes/);
  });

  it('refuses more than 10 files', async () => {
    renderZone({ transport: transport(Promise.resolve()) });
    await drop(Array.from({ length: 11 }, (_, i) => new File(['x'], `${i}.png`, { type: 'image/png' })));
    expect(await screen.findByText('Some files were rejected:')).toBeTruthy();
    expect(screen.getAllByText(/Too many files/).length).toBeGreaterThan(0);
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
  });

  it('shows byte progress, then completes, and can dismiss the item', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stored = vi.fn();
    renderZone({ transport: transport(gate), onStored: stored });
    await drop([new File(['abcd'], 'a.pdf', { type: 'application/pdf' })]);
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('43'));
    await act(async () => release());
    await waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('completed'));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(stored).toHaveBeenCalledWith(expect.objectContaining({ id: 'f-a.pdf', name: 'a.pdf' }));
    expect(server).toEqual([{ name: 'a.pdf', onConflict: 'KEEP_BOTH' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss a.pdf' }));
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
  });

  it('takes the UploadThing path when the server says so, with the same progress steps', async () => {
    const transfer = gate();
    const analysis = gate();
    const t = uploadthingTransport(transfer.promise, analysis.promise);
    renderZone({ transport: t.value });
    await drop([new File(['abcd'], 'a.png', { type: 'image/png' })]);
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('43'));
    expect(screen.getByTestId('upload-item').dataset.status).toBe('uploading');
    await act(async () => transfer.release());
    await waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('analyzing'));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('90');
    await act(async () => analysis.release());
    await waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('completed'));
    expect(t.direct).toHaveBeenCalledWith('/api/uploadthing', expect.any(File), expect.any(Function), undefined);
    expect(t.put).not.toHaveBeenCalled();
    expect(t.requested).not.toContain('/api/objects/upload');
  });

  it('shows the refusal of a file that reached UploadThing as the error of its item', async () => {
    const t = uploadthingTransport(Promise.resolve(), Promise.resolve());
    t.direct.mockResolvedValueOnce({
      ok: false,
      status: 415,
      message: 'File type must be one of png; this file is elf.',
    } as never);
    renderZone({ transport: t.value });
    await drop([new File(['abcd'], 'b.png', { type: 'image/png' })]);
    await waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('error'));
    expect(screen.getByText('File type must be one of png; this file is elf.')).toBeTruthy();
  });
});

/** A server where `taken` names already exist at the top level; records what each upload asked for. */
function conflictTransport(taken: string[]) {
  const filed = filingServer(taken);
  const puts: string[] = [];
  const asked: string[] = [];
  let uploads = 0;
  const value: Transport = {
    request: async <T,>(_method: string, url: string) => {
      if (url.startsWith('/api/objects/')) asked.push(url);
      const batch = batchOfTargets(url);
      if (batch) return batch as T;
      if (url.startsWith('/api/files/conflicts')) {
        const names = new URLSearchParams(url.split('?')[1]).getAll('names');
        return {
          conflicts: names
            .filter((name) => taken.includes(name))
            .map((name) => ({
              name,
              existing: { id: `old-${name}`, name },
              keepBothName: name.replace(/(\.[^.]*)$/, ' (1)$1'),
            })),
        } as T;
      }
      if (url === '/api/objects/upload') return { uploadURL: `/objects/uploads/u${uploads++}?token=t` } as T;
      return { tags: [] } as T;
    },
    put: async (_url, file) => {
      puts.push(file.name);
    },
  };
  return { value, filed, puts, asked };
}

/** Each upload in the list by its status, in order. */
const uploadStatuses = () => screen.getAllByTestId('upload-item').map((item) => item.dataset.status);

const pdf = (name: string) => new File(['abcd'], name, { type: 'application/pdf' });

describe('UploadZone with names already taken', () => {
  it('asks per file before sending: keep both by default, replace, or skip (never sent)', async () => {
    const t = conflictTransport(['barn.pdf', 'diner.pdf', 'motel.pdf']);
    renderZone({ transport: t.value });
    await drop([pdf('barn.pdf'), pdf('new.pdf'), pdf('diner.pdf'), pdf('motel.pdf')]);
    const dialog = await screen.findByRole('dialog', { name: 'File already exists (1 of 3)' });
    expect(dialog.textContent).toContain('barn.pdf is already in the top level of your files.');
    expect(dialog.textContent).toContain('saves the new one as barn (1).pdf');
    expect(t.puts, 'nothing is sent before the answers').toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Keep both' }));
    await screen.findByRole('dialog', { name: 'File already exists (2 of 3)' });
    fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    await screen.findByRole('dialog', { name: 'File already exists (3 of 3)' });
    expect(screen.queryByLabelText(/Apply to all/), 'no one left to apply it to').toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));

    await waitFor(() => expect(uploadStatuses()).toEqual(['completed', 'completed', 'completed', 'skipped']));
    expect(t.puts.sort()).toEqual(['barn.pdf', 'diner.pdf', 'new.pdf']);
    expect(t.asked, 'the URLs of the three files sent, in one request').toEqual(['/api/objects/uploads?count=3']);
    expect(t.filed).toEqual(
      expect.arrayContaining([
        { name: 'barn.pdf', onConflict: 'KEEP_BOTH' },
        { name: 'new.pdf', onConflict: 'KEEP_BOTH' },
        { name: 'diner.pdf', onConflict: 'REPLACE' },
      ]),
    );
    expect(t.filed).toHaveLength(3);
    expect(screen.getByText(/saved as barn \(1\)\.pdf/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('applies one answer to the rest of the batch when asked', async () => {
    const t = conflictTransport(['a.pdf', 'b.pdf', 'c.pdf']);
    renderZone({ transport: t.value });
    await drop([pdf('a.pdf'), pdf('b.pdf'), pdf('c.pdf')]);
    await screen.findByRole('dialog', { name: 'File already exists (1 of 3)' });
    fireEvent.click(screen.getByRole('button', { name: 'Keep both' }));
    await screen.findByRole('dialog', { name: 'File already exists (2 of 3)' });
    fireEvent.click(screen.getByLabelText('Apply to all (1 more file with names already taken)'));
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(uploadStatuses()).toEqual(['completed', 'skipped', 'skipped']));
    expect(t.filed).toEqual([{ name: 'a.pdf', onConflict: 'KEEP_BOTH' }]);
  });

  it('sends nothing when the question is cancelled', async () => {
    const t = conflictTransport(['a.pdf']);
    renderZone({ transport: t.value });
    await drop([pdf('a.pdf'), pdf('free.pdf')]);
    await screen.findByRole('dialog', { name: 'File already exists' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
    expect(t.puts).toEqual([]);
  });
});

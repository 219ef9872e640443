import { describe, expect, it, vi } from 'vitest';
import { analyzeFile, RESUMABLE_THRESHOLD, type Transport, uploadFile, uploadTargetsFor } from './transport.ts';

function fakeTransport(overrides: Partial<Record<string, unknown>> = {}) {
  const calls: { method: string; url: string; body?: unknown }[] = [];
  const transport: Transport = {
    request: async <T>(method: string, url: string, body?: unknown) => {
      calls.push({ method, url, body });
      const answer = overrides[url];
      if (answer instanceof Error) throw answer;
      if (answer !== undefined) return answer as T;
      if (url === '/api/objects/upload') return { uploadURL: '/objects/uploads/u1?token=t' } as T;
      return { id: 'f1', name: 'a.png', objectPath: '/objects/uploads/u1', mimeType: 'image/png', size: 3 } as T;
    },
    put: vi.fn(async (_url: string, file: File, onProgress: (l: number, t: number) => void) => {
      onProgress(file.size, file.size);
    }),
    resumable: vi.fn(async () => 'tus-url'),
  };
  return { transport, calls };
}

const photo = new File(['abc'], 'a.png', { type: 'image/png' });

/** The step that files the sent bytes (createFile in the app), as a spy. */
const recorder = () =>
  vi.fn(async (objectUrl: string, file: File) => ({
    id: 'f1',
    name: file.name,
    objectPath: new URL(objectUrl, 'http://x').pathname,
    mimeType: file.type,
    size: file.size,
  }));

type Progress = (loaded: number, total: number) => void;

/** A direct upload's answer: all of `file` sent (progress says so) and stored as upload `id`. */
function storedWhole(id: string, file: File, onProgress: Progress) {
  onProgress(file.size, file.size);
  return {
    ok: true as const,
    uploadURL: `/objects/uploads/${id}`,
    objectPath: `/objects/uploads/${id}`,
    uploadId: id,
    size: 3,
    mimeType: 'image/png',
  };
}

describe('uploadFile', () => {
  it('asks for a URL, sends the bytes, then files them in the chosen folder', async () => {
    const { transport, calls } = fakeTransport();
    const record = recorder();
    const progress: number[] = [];
    const stored = await uploadFile(
      photo,
      { folderId: 'folder-1', onConflict: 'replace', record, onProgress: (l) => progress.push(l) },
      transport,
    );
    expect(stored).toMatchObject({ id: 'f1', objectPath: '/objects/uploads/u1' });
    expect(transport.put).toHaveBeenCalledWith('/objects/uploads/u1?token=t', photo, expect.any(Function), undefined);
    expect(progress).toEqual([3]);
    expect(calls.map((c) => c.url)).toEqual(['/api/storage/config', '/api/objects/upload']);
    expect(record).toHaveBeenCalledWith('/objects/uploads/u1?token=t', photo, {
      folderId: 'folder-1',
      onConflict: 'replace',
    });
  });

  it('names the step that failed with the spec messages', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const record = recorder();
    await expect(
      uploadFile(photo, { record }, fakeTransport({ '/api/objects/upload': new Error('500: x') }).transport),
    ).rejects.toThrow('Failed to get upload URL');
    expect(record).not.toHaveBeenCalled();
    const failing = vi.fn(async () => Promise.reject(new Error('File not found')));
    await expect(uploadFile(photo, { record: failing }, fakeTransport().transport)).rejects.toThrow(
      'Failed to create file record',
    );
  });

  it('goes resumable for large files when the server offers tus', async () => {
    const big = new File([new Uint8Array(RESUMABLE_THRESHOLD + 1)], 'b.mp4', { type: 'video/mp4' });
    const { transport } = fakeTransport({
      '/api/objects/upload': { uploadURL: '/objects/uploads/u2?token=t', tusEndpoint: '/objects/tus' },
    });
    await uploadFile(big, { record: recorder() }, transport);
    expect(transport.resumable).toHaveBeenCalled();
    expect(transport.put).not.toHaveBeenCalled();
  });

  it('sends the bytes straight to UploadThing when the server keeps files there', async () => {
    const { transport, calls } = fakeTransport({
      '/api/storage/config': { backend: 'uploadthing', uploadthingUrl: '/api/uploadthing', maxUploadSize: 50 },
    });
    transport.direct = vi.fn(async (_endpoint: string, file: File, onProgress: Progress) =>
      storedWhole('u3', file, onProgress),
    );
    const progress: number[] = [];
    const record = recorder();
    await uploadFile(photo, { record, onProgress: (l) => progress.push(l) }, transport);
    expect(transport.direct).toHaveBeenCalledWith('/api/uploadthing', photo, expect.any(Function), undefined);
    expect(transport.put).not.toHaveBeenCalled();
    expect(progress).toEqual([3]);
    expect(calls.map((c) => c.url)).toEqual(['/api/storage/config']);
    expect(record).toHaveBeenCalledWith('/objects/uploads/u3', photo, expect.anything());
  });

  it('shows the reason the server gives when it refuses what reached UploadThing', async () => {
    const { transport, calls } = fakeTransport({
      '/api/storage/config': { backend: 'uploadthing', uploadthingUrl: '/api/uploadthing', maxUploadSize: 50 },
    });
    transport.direct = async () => ({
      ok: false,
      status: 415,
      message: 'File type must be one of png; this file is elf.',
    });
    await expect(uploadFile(photo, { record: recorder() }, transport)).rejects.toThrow(
      'File type must be one of png; this file is elf.',
    );
    expect(calls.map((c) => c.url)).toEqual(['/api/storage/config']);
  });

  it('sends the bytes straight to the S3 bucket when the server keeps files there', async () => {
    const { transport, calls } = fakeTransport({
      '/api/storage/config': { backend: 's3', uploadthingUrl: null, maxUploadSize: 50 },
    });
    transport.s3 = vi.fn(async (file: File, onProgress: Progress) => storedWhole('u4', file, onProgress));
    const record = recorder();
    await uploadFile(photo, { record }, transport);
    expect(transport.s3).toHaveBeenCalledWith(photo, expect.any(Function), undefined, transport.request);
    expect(transport.put).not.toHaveBeenCalled();
    expect(calls.map((c) => c.url)).toEqual(['/api/storage/config']);
    expect(record).toHaveBeenCalledWith('/objects/uploads/u4', photo, expect.anything());
  });

  it('asks for the URLs of a batch of files once, then hands one to each file', async () => {
    const later = new Date(Date.now() + 15 * 60_000).toISOString();
    const { transport, calls } = fakeTransport({
      '/api/objects/uploads?count=3': {
        uploads: ['b1', 'b2', 'b3'].map((id) => ({ uploadURL: `/objects/uploads/${id}?token=t`, expiresAt: later })),
      },
    });
    const nextTarget = uploadTargetsFor(3, transport);
    const record = recorder();
    const stored = await Promise.all(
      ['a.png', 'b.png', 'c.png'].map((name) =>
        uploadFile(new File(['abc'], name, { type: 'image/png' }), { record, nextTarget }, transport),
      ),
    );
    expect(stored.map((file) => file.objectPath).sort()).toEqual([
      '/objects/uploads/b1',
      '/objects/uploads/b2',
      '/objects/uploads/b3',
    ]);
    expect(calls.filter((c) => c.url.startsWith('/api/objects/')).map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/objects/uploads?count=3',
    ]);
  });

  it('asks for a URL of its own once the batch’s run out, are about to expire, or could not be had', async () => {
    const soon = new Date(Date.now() + 20_000).toISOString();
    const { transport, calls } = fakeTransport({
      '/api/objects/uploads?count=2': { uploads: [{ uploadURL: '/objects/uploads/old?token=t', expiresAt: soon }] },
    });
    const nextTarget = uploadTargetsFor(2, transport);
    expect((await nextTarget()).uploadURL).toBe('/objects/uploads/u1?token=t');
    expect((await nextTarget()).uploadURL).toBe('/objects/uploads/u1?token=t');
    expect(calls.map((c) => c.url)).toEqual([
      '/api/objects/uploads?count=2',
      '/api/objects/upload',
      '/api/objects/upload',
    ]);

    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = fakeTransport({ '/api/objects/uploads?count=2': new Error('500: x') });
    const fallback = uploadTargetsFor(2, failing.transport);
    expect((await fallback()).uploadURL).toBe('/objects/uploads/u1?token=t');
    expect(failing.calls.map((c) => c.url)).toEqual(['/api/objects/uploads?count=2', '/api/objects/upload']);
  });

  it('asks for a single file’s URL as before', async () => {
    const { transport, calls } = fakeTransport();
    await uploadTargetsFor(1, transport)();
    expect(calls.map((c) => c.url)).toEqual(['/api/objects/upload']);
  });

  it('only logs a failed analysis', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { transport } = fakeTransport({ '/api/ai/analyze-file': new Error('503: down') });
    await expect(
      analyzeFile({ id: 'f1', name: 'a', objectPath: '/o', mimeType: 'image/png', size: 1 }, transport),
    ).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
  });
});

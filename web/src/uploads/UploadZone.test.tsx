import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Transport } from './transport.ts';
import { UploadZone } from './UploadZone.tsx';

afterEach(cleanup);

function transport(putGate: Promise<void>): Transport {
  return {
    request: async <T,>(_method: string, url: string) => {
      if (url === '/api/objects/upload') return { uploadURL: '/objects/uploads/u?token=t' } as T;
      if (url === '/api/files')
        return { id: 'f', name: 'a.png', objectPath: '/objects/uploads/u', mimeType: 'image/png', size: 4 } as T;
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

describe('UploadZone', () => {
  it('lists rejected files with the spec messages', async () => {
    render(<UploadZone transport={transport(Promise.resolve())} />);
    const big = new File(['x'], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 + 1 });
    await drop([new File(['x'], 'tool.exe', { type: 'application/x-msdownload' }), big]);
    const alert = await screen.findByText('Some files were rejected:');
    const text = alert.parentElement?.textContent ?? '';
    expect(text).toMatch(/tool\.exe: File type must be one of/);
    expect(text).toMatch(/huge\.mp4: File is larger than 52428800 bytes/);
  });

  it('refuses more than 10 files', async () => {
    render(<UploadZone transport={transport(Promise.resolve())} />);
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
    render(<UploadZone transport={transport(gate)} onStored={stored} />);
    await drop([new File(['abcd'], 'a.pdf', { type: 'application/pdf' })]);
    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('43'));
    await act(async () => release());
    await waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('completed'));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(stored).toHaveBeenCalledWith(expect.objectContaining({ id: 'f' }));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss a.pdf' }));
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
  });
});

import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { loadQuery, RelayEnvironmentProvider } from 'react-relay/hooks';
import { afterEach, expect, it, vi } from 'vitest';
import { createEnvironment } from '../relay/environment.ts';
import { StorageUsageSlot, useRefreshStorageUsage } from './StorageUsageSlot.tsx';
import StorageUsageSlotQuery from './__generated__/StorageUsageSlotQuery$parameters.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const GB = 1024 ** 3;

/** Stands in for an upload, import or delete: it only asks for the figures to be read again. */
function AfterUpload() {
  const refresh = useRefreshStorageUsage();
  return (
    <button type="button" onClick={refresh}>
      Upload done
    </button>
  );
}

it('shows the new figure after an upload, from the Relay store, without a reload', async () => {
  let used = 0;
  const reads: number[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      reads.push(used);
      const storage = { usedBytes: used, quotaBytes: 10 * GB, percentUsed: (used / (10 * GB)) * 100 };
      return new Response(JSON.stringify({ data: { viewer: { id: 'VXNlcjox', storage } } }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  const environment = createEnvironment();
  render(
    <RelayEnvironmentProvider environment={environment}>
      <StorageUsageSlot reference={loadQuery(environment, StorageUsageSlotQuery, {})} />
      <AfterUpload />
    </RelayEnvironmentProvider>,
  );
  await screen.findByText('0 Bytes of 10 GB used');

  used = 2.5 * GB;
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Upload done' })));
  await screen.findByText('2.5 GB of 10 GB used');
  expect(screen.getByRole('progressbar', { name: 'Storage used' }).getAttribute('aria-valuenow')).toBe('25');
  expect(reads).toEqual([0, 2.5 * GB]);
});

it('does nothing outside a Relay environment (upload parts tested on their own)', () => {
  render(<AfterUpload />);
  expect(() => fireEvent.click(screen.getByRole('button', { name: 'Upload done' }))).not.toThrow();
});

import { Suspense, useCallback, useContext } from 'react';
import { fetchQuery, graphql, type PreloadedQuery, usePreloadedQuery } from 'react-relay/hooks';
import ReactRelayContext from 'react-relay/ReactRelayContext';
import { formatFileSize } from '../lib/format.ts';
import { HardDriveIcon } from '../ui/icons.tsx';
import { Skeleton } from '../ui/Skeleton.tsx';
import { QuietBoundary } from './ScreenBoundary.tsx';
import type { StorageUsageSlotQuery } from './__generated__/StorageUsageSlotQuery.graphql';

export function StorageBar({ percent }: { percent: number }) {
  return (
    <div
      role="progressbar"
      aria-label="Storage used"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(percent)}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
    >
      <div
        className={`h-full rounded-full ${percent >= 90 ? 'bg-red-600' : 'bg-indigo-600'}`}
        style={{ width: `${Math.min(100, Math.max(percent, percent > 0 ? 1 : 0))}%` }}
      />
    </div>
  );
}

const storageUsageQuery = graphql`
  query StorageUsageSlotQuery @preloadable {
    viewer {
      id
      storage {
        usedBytes
        quotaBytes
        percentUsed
      }
    }
  }
`;

/**
 * Reads the viewer's storage figures again into the Relay store, after anything that adds or frees
 * bytes (uploads, imports, deletes); the card, and every other reader of these fields, shows them
 * from the store at once. Outside a Relay environment (unit tests of upload parts) it does nothing.
 */
export function useRefreshStorageUsage() {
  const environment = useContext(ReactRelayContext)?.environment;
  return useCallback(() => {
    if (!environment) return;
    fetchQuery<StorageUsageSlotQuery>(environment, storageUsageQuery, {}, { fetchPolicy: 'network-only' }).subscribe({
      error: (error: unknown) => console.warn('Could not read the storage usage again', error),
    });
  }, [environment]);
}

function Usage({ reference }: { reference: PreloadedQuery<StorageUsageSlotQuery> }) {
  const data = usePreloadedQuery<StorageUsageSlotQuery>(storageUsageQuery, reference);
  const storage = data.viewer.storage;
  if (!storage) return null;
  return (
    <>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {formatFileSize(storage.usedBytes)} of {formatFileSize(storage.quotaBytes)} used
      </p>
      <div className="mt-3">
        <StorageBar percent={storage.percentUsed} />
      </div>
      <p className="mt-1 text-right text-xs text-slate-500 dark:text-slate-400">{Math.round(storage.percentUsed)}%</p>
    </>
  );
}

/** The sidebar's Storage Usage card, with the user's real figures. */
export function StorageUsageSlot({ reference }: { reference: PreloadedQuery<StorageUsageSlotQuery> }) {
  return (
    <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800" data-testid="storage-usage">
      <p className="flex items-center gap-2 text-sm font-medium text-slate-800 dark:text-slate-200">
        <HardDriveIcon className="h-4 w-4" /> Storage Usage
      </p>
      <QuietBoundary>
        <Suspense fallback={<Skeleton className="mt-3 h-8" />}>
          <Usage reference={reference} />
        </Suspense>
      </QuietBoundary>
    </div>
  );
}

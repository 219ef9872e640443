import { Suspense, useState } from 'react';
import { graphql, useLazyLoadQuery, useMutation } from 'react-relay';
import { formatDateTime, formatFileSize } from '../../lib/format.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogActions } from '../../ui/Dialog.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { toast } from '../../ui/toast.tsx';
import type { FileVersionsDialogQuery } from './__generated__/FileVersionsDialogQuery.graphql';
import type { FileVersionsDialogRestoreMutation } from './__generated__/FileVersionsDialogRestoreMutation.graphql';

function Versions({ fileId }: { fileId: string }) {
  const data = useLazyLoadQuery<FileVersionsDialogQuery>(
    graphql`
      query FileVersionsDialogQuery($id: ID!) {
        node(id: $id) {
          ... on File {
            id
            currentVersion
            versions {
              id
              version
              size
              objectPath
              createdAt
            }
          }
        }
      }
    `,
    { id: fileId },
    { fetchPolicy: 'store-and-network' },
  );
  const [restore, restoring] = useMutation<FileVersionsDialogRestoreMutation>(graphql`
    mutation FileVersionsDialogRestoreMutation($fileId: ID!, $version: Int!) {
      restoreFileVersion(fileId: $fileId, version: $version) {
        ... on MutationRestoreFileVersionSuccess {
          data {
            id
            size
            objectPath
            currentVersion
            versions {
              id
              version
              size
              objectPath
              createdAt
            }
            ...FileRow_file
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [pendingVersion, setPendingVersion] = useState<number | null>(null);
  const file = data.node;
  if (!file?.versions) return <p className="text-sm text-slate-500">This file no longer exists.</p>;

  function onRestore(version: number) {
    setPendingVersion(version);
    restore({
      variables: { fileId, version },
      onCompleted: (result) => {
        setPendingVersion(null);
        const answer = result.restoreFileVersion;
        if (answer && 'message' in answer && answer.message) {
          toast({ title: 'Error', description: answer.message, variant: 'destructive' });
        } else {
          toast({ title: 'Success', description: `Version ${version} restored.` });
        }
      },
      onError: () => {
        setPendingVersion(null);
        toast({ title: 'Error', description: 'Failed to restore version. Please try again.', variant: 'destructive' });
      },
    });
  }

  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-700" aria-label="Versions">
      {file.versions.map((v) => (
        <li key={v.id} className="flex flex-wrap items-center gap-2 py-2" data-testid="version-row">
          <div className="min-w-0 flex-1">
            <p className="text-sm font-medium text-slate-900 dark:text-slate-100">
              Version {v.version}
              {v.version === file.currentVersion && (
                <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200">
                  Current
                </span>
              )}
            </p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {formatFileSize(v.size)} · {formatDateTime(v.createdAt as string)}
            </p>
          </div>
          <a
            href={v.objectPath}
            target="_blank"
            rel="noreferrer"
            className="text-sm text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Open
          </a>
          <a
            href={`${v.objectPath}?download`}
            download
            aria-label={`Download version ${v.version}`}
            className="text-sm text-indigo-600 hover:underline dark:text-indigo-400"
          >
            Download
          </a>
          {v.version !== file.currentVersion && (
            <Button size="sm" variant="outline" disabled={restoring} onClick={() => onRestore(v.version)}>
              {pendingVersion === v.version ? 'Restoring...' : 'Restore'}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function FileVersionsDialog({
  file,
  onClose,
}: {
  file: { id: string; name: string } | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={file !== null} onClose={onClose} title="Versions" description={file?.name} size="md">
      {file && (
        <Suspense fallback={<Spinner />}>
          <Versions fileId={file.id} />
        </Suspense>
      )}
      <DialogActions>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

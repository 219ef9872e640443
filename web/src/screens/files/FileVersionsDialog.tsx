import { useState } from 'react';
import { graphql, type PreloadedQuery, useFragment, usePreloadedQuery } from 'react-relay/hooks';
import { formatDateTime, formatFileSize } from '../../lib/format.ts';
import { useQueryWhileOpen, WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog, DialogActions } from '../../ui/Dialog.tsx';
import type { FileVersionsDialog_file$key } from './__generated__/FileVersionsDialog_file.graphql';
import type { FileVersionsDialogQuery } from './__generated__/FileVersionsDialogQuery.graphql';
import type { FileVersionsDialogRestoreMutation } from './__generated__/FileVersionsDialogRestoreMutation.graphql';

const versionsQuery = graphql`
  query FileVersionsDialogQuery($id: ID!) {
    node(id: $id) {
      ...FileVersionsDialog_file @alias(as: "file")
    }
  }
`;

const versionsFragment = graphql`
  fragment FileVersionsDialog_file on File {
    currentVersion
    versions {
      id
      version
      size
      objectPath
      createdAt
    }
  }
`;

function Versions({ fileId, reference }: { fileId: string; reference: PreloadedQuery<FileVersionsDialogQuery> }) {
  const data = usePreloadedQuery<FileVersionsDialogQuery>(versionsQuery, reference);
  const [restore, restoring] = useMutationWithToasts<FileVersionsDialogRestoreMutation>(
    graphql`
    mutation FileVersionsDialogRestoreMutation($fileId: ID!, $version: Int!) {
      restoreFileVersion(fileId: $fileId, version: $version) {
        __typename
        ... on MutationRestoreFileVersionSuccess {
          data {
            ...FileVersionsDialog_file
            ...FileRow_file
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.restoreFileVersion,
      failure: 'Failed to restore version. Please try again.',
      serverMessage: true,
    },
  );
  const [pendingVersion, setPendingVersion] = useState<number | null>(null);
  const file = useFragment<FileVersionsDialog_file$key>(versionsFragment, data.node?.file);
  if (!file?.versions) return <p className="text-sm text-slate-500">This file no longer exists.</p>;

  function onRestore(version: number) {
    setPendingVersion(version);
    restore({
      variables: { fileId, version },
      success: { title: 'Success', description: `Version ${version} restored.` },
      onSettled: () => setPendingVersion(null),
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
  const reference = useQueryWhileOpen<FileVersionsDialogQuery>(versionsQuery, file && { id: file.id });
  return (
    <Dialog open={file !== null} onClose={onClose} title="Versions" description={file?.name} size="md">
      {file && (
        <WhenLoaded reference={reference}>{(loaded) => <Versions fileId={file.id} reference={loaded} />}</WhenLoaded>
      )}
      <DialogActions>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { useEffect, useState } from 'react';
import { graphql } from 'react-relay/hooks';
import { toastsFor, useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { FormDialog } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import type { NewFolderDialogCreateMutation } from './__generated__/NewFolderDialogCreateMutation.graphql';
import { FolderNameField } from './FolderActions.tsx';

/** A new folder inside `parentId` (null: at the top), added to the folder list's connection when there is one. */
export function NewFolderDialog({
  open,
  onClose,
  parentId,
  connectionId,
}: {
  open: boolean;
  onClose: () => void;
  parentId: string | null;
  connectionId: string | null;
}) {
  const [name, setName] = useState('');
  useEffect(() => {
    if (open) setName('');
  }, [open]);
  const [commit, pending] = useMutationWithToasts<NewFolderDialogCreateMutation>(
    graphql`
      mutation NewFolderDialogCreateMutation($name: String!, $parentId: ID, $connections: [ID!]!) {
        createFolder(name: $name, parentId: $parentId) {
          __typename
          ... on MutationCreateFolderSuccess {
            data @appendNode(connections: $connections, edgeTypeName: "QueryFoldersConnectionEdge") {
              id
              name
              fileCount
              folderCount
            }
          }
          ... on Error {
            message
          }
        }
      }
    `,
    {
      outcome: (r) => r.createFolder,
      ...toastsFor('create', 'Folder'),
      serverMessage: true,
    },
  );

  function submit() {
    if (!name.trim()) {
      toast({ title: 'Error', description: 'Folder name is required.', variant: 'destructive' });
      return;
    }
    commit({
      variables: { name: name.trim(), parentId, connections: connectionId ? [connectionId] : [] },
      onSuccess: () => onClose(),
    });
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title="New Folder"
      description="Create a folder inside the current one."
      size="sm"
      onSubmit={submit}
      submitLabel="Create Folder"
      pendingLabel="Creating..."
      pending={pending}
    >
      <FolderNameField id="folder-name" value={name} onChange={setName} />
    </FormDialog>
  );
}

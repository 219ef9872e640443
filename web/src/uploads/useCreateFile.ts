import { useCallback } from 'react';
import { graphql, useMutation } from 'react-relay/hooks';
import { globalIdOf } from '../lib/globalId.ts';
import type { useCreateFileMutation } from './__generated__/useCreateFileMutation.graphql';
import type { ConflictChoice } from './conflicts.ts';
import { storedFileOf } from './storedFile.ts';
import { type Filing, type StoredFile, UploadStepError } from './transport.ts';

const CONFLICT_CHOICE = { keepBoth: 'KEEP_BOTH', replace: 'REPLACE', skip: 'SKIP' } as const satisfies Record<
  ConflictChoice,
  string
>;

/**
 * Files sent bytes with the createFile mutation. The new file joins the file lists named by
 * `connections` in the store (a replaced file, already there, only changes in place), so the
 * folder on screen shows it without asking the server for the folder again.
 */
export function useCreateFile() {
  const [commit] = useMutation<useCreateFileMutation>(graphql`
    mutation useCreateFileMutation(
      $input: CreateFileInput!
      $onConflict: UploadConflictChoice
      $connections: [ID!]!
    ) {
      createFile(input: $input, onConflict: $onConflict) {
        ... on MutationCreateFileSuccess {
          data @prependNode(connections: $connections, edgeTypeName: "QueryFilesConnectionEdge") {
            ...storedFile_file
            ...FileRow_file
          }
        }
        ... on UploadSkipped {
          message
        }
        ... on Error {
          message
        }
      }
    }
  `);

  return useCallback(
    (objectUrl: string, file: File, filing: Filing, connections: readonly string[] = []) =>
      new Promise<StoredFile>((resolve, reject) => {
        commit({
          variables: {
            input: {
              name: file.name,
              originalName: file.name,
              mimeType: file.type || null,
              objectUrl,
              folderId: filing.folderId ? globalIdOf('Folder', filing.folderId) : null,
              isPublic: false,
              tags: [],
              metadata: { uploadedAt: new Date().toISOString() },
            },
            onConflict: CONFLICT_CHOICE[filing.onConflict ?? 'keepBoth'],
            connections: [...connections],
          },
          onCompleted: ({ createFile: answer }) => {
            const data = 'data' in answer ? answer.data : undefined;
            if (!data) {
              // The server's reason (a name it refuses, a skipped upload) is what the upload list shows.
              const message = 'message' in answer ? answer.message : undefined;
              reject(message ? new UploadStepError(message) : new Error('Failed to create file record'));
              return;
            }
            resolve(storedFileOf(data));
          },
          onError: reject,
        });
      }),
    [commit],
  );
}

import { useCallback, useRef } from 'react';
import { graphql, useMutation } from 'react-relay/hooks';
import { ACCEPT, MAX_FILE_SIZE, rejectionMessage } from '../../uploads/limits.ts';
import { storedFileOf } from '../../uploads/storedFile.ts';
import type { StoredFile } from '../../uploads/transport.ts';
import { UploadList } from '../../uploads/UploadZone.tsx';
import { useUploads } from '../../uploads/useUploads.ts';
import { toast } from '../../ui/toast.tsx';
import type { NewVersionUploadMutation } from './__generated__/NewVersionUploadMutation.graphql';

const ACCEPT_ATTRIBUTE = [...Object.keys(ACCEPT), ...Object.values(ACCEPT).flat()].join(',');

interface Target {
  id: string;
  name: string;
}

/**
 * 'Upload new version' on a file: a file chooser, the upload queue's progress bars, then the
 * uploadFileVersion mutation, whose answer updates the file's row (version number and size).
 */
export function useNewVersionUpload() {
  const inputRef = useRef<HTMLInputElement>(null);
  const chosenFor = useRef<Target | null>(null);
  // Which file each chosen upload is a version of: several can be on their way at once.
  const targets = useRef(new WeakMap<File, Target>());
  const versions = useRef(new WeakMap<File, number>());

  const [commit] = useMutation<NewVersionUploadMutation>(graphql`
    mutation NewVersionUploadMutation($fileId: ID!, $uploadURL: String!, $originalName: String, $mimeType: String) {
      uploadFileVersion(fileId: $fileId, uploadURL: $uploadURL, originalName: $originalName, mimeType: $mimeType) {
        ... on MutationUploadFileVersionSuccess {
          data {
            currentVersion
            ...storedFile_file
            ...FileRow_file
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  const record = useCallback(
    (objectUrl: string, file: File) =>
      new Promise<StoredFile>((resolve, reject) => {
        const target = targets.current.get(file);
        if (!target) {
          reject(new Error('No file chosen for this version.'));
          return;
        }
        commit({
          variables: {
            fileId: target.id,
            uploadURL: objectUrl,
            originalName: file.name,
            mimeType: file.type || null,
          },
          onCompleted: ({ uploadFileVersion: answer }) => {
            if ('message' in answer && answer.message) {
              reject(new Error(answer.message));
              return;
            }
            const data = 'data' in answer ? answer.data : undefined;
            if (!data) {
              reject(new Error('Upload failed'));
              return;
            }
            versions.current.set(file, data.currentVersion);
            resolve(storedFileOf(data));
          },
          onError: reject,
        });
      }),
    [commit],
  );

  const { items, addFiles, dismiss } = useUploads({ record });

  const onChosen = (files: FileList | null) => {
    const file = files?.[0];
    const target = chosenFor.current;
    if (inputRef.current) inputRef.current.value = '';
    if (!file || !target) return;
    if (file.size > MAX_FILE_SIZE) {
      toast({ title: 'Upload error', description: rejectionMessage('file-too-large'), variant: 'destructive' });
      return;
    }
    targets.current.set(file, target);
    void addFiles([file]).then((stored) => {
      const version = versions.current.get(file);
      if (stored.length > 0 && version) {
        toast({ title: 'Success', description: `Version ${version} of ${target.name} uploaded.` });
      }
    });
  };

  const choose = (target: Target) => {
    chosenFor.current = target;
    inputRef.current?.click();
  };

  const panel = (
    <>
      <input
        ref={inputRef}
        type="file"
        className="hidden"
        accept={ACCEPT_ATTRIBUTE}
        aria-label="Choose a new version to upload"
        data-testid="new-version-input"
        onChange={(event) => onChosen(event.target.files)}
      />
      {items.length > 0 && (
        <section aria-label="New versions" className="mb-3">
          <UploadList items={items} onDismiss={dismiss} />
        </section>
      )}
    </>
  );
  return { choose, panel };
}

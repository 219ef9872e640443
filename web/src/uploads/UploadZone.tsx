import { useState } from 'react';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { formatFileSize } from '../lib/format.ts';
import { toast } from '../ui/toast.tsx';
import { UploadConflictDialog } from './dialogs.ts';
import { ACCEPT, MAX_FILE_SIZE, MAX_FILES, type Rejection, rejectionMessage } from './limits.ts';
import type { UploadItem, UploadStatus } from './queue.ts';
import { type UseUploadsOptions, useUploads } from './useUploads.ts';
import { CloseIcon } from '../ui/icons.tsx';

type DropRejection = Pick<FileRejection, 'errors'> & { file: { name: string } };

export function rejectionsFrom(fileRejections: readonly DropRejection[], accept = ACCEPT): Rejection[] {
  return fileRejections.map(({ file, errors }) => ({
    name: file.name,
    messages: errors.map((error) => rejectionMessage(String(error.code), error.message, accept)),
  }));
}

export function RejectedFiles({ rejections }: { rejections: Rejection[] }) {
  if (rejections.length === 0) return null;
  return (
    <div
      role="alert"
      className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      <p className="font-medium">Some files were rejected:</p>
      <ul className="mt-1 space-y-1">
        {rejections.map((rejection, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole on each drop and names may repeat
          <li key={index}>
            <span className="font-medium break-all">{rejection.name}</span>: {rejection.messages.join(', ')}
          </li>
        ))}
      </ul>
    </div>
  );
}

const STATUS_TEXT: Record<UploadStatus, string> = {
  pending: 'Waiting…',
  uploading: 'Uploading…',
  analyzing: 'Analyzing…',
  completed: 'Completed',
  error: 'Failed',
  skipped: 'Skipped: a file of this name is already there',
};

export function UploadItemRow({ item, onDismiss }: { item: UploadItem; onDismiss: (id: string) => void }) {
  const barColour =
    item.status === 'error' ? 'bg-red-500' : item.status === 'completed' ? 'bg-emerald-500' : 'bg-indigo-500';
  return (
    <li
      className="rounded-md border border-slate-200 p-3 dark:border-slate-700"
      data-testid="upload-item"
      data-status={item.status}
    >
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={item.file.name}>
            {item.file.name}
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {formatFileSize(item.file.size)} · {STATUS_TEXT[item.status]}
            {item.status !== 'error' && item.status !== 'pending' && item.status !== 'skipped'
              ? ` ${item.progress}%`
              : ''}
            {item.storedAs && ` · saved as ${item.storedAs}`}
          </p>
        </div>
        <button
          type="button"
          onClick={() => onDismiss(item.id)}
          className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-slate-800 dark:hover:text-slate-100"
          aria-label={`Dismiss ${item.file.name}`}
        >
          <CloseIcon className="h-4 w-4" />
        </button>
      </div>
      <div
        role="progressbar"
        aria-label={`Upload progress for ${item.file.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={item.progress}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
      >
        <div className={`h-full ${barColour} transition-[width] duration-200`} style={{ width: `${item.progress}%` }} />
      </div>
      {item.status === 'error' && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{item.error}</p>}
    </li>
  );
}

export function UploadList({ items, onDismiss }: { items: UploadItem[]; onDismiss: (id: string) => void }) {
  if (items.length === 0) return null;
  return (
    <ul className="mt-4 space-y-2" aria-label="Uploads">
      {items.map((item) => (
        <UploadItemRow key={item.id} item={item} onDismiss={onDismiss} />
      ))}
    </ul>
  );
}

/** The drag-and-drop upload panel with its list of upload items. */
export function UploadZone(props: UseUploadsOptions & { className?: string }) {
  const { items, addFiles, dismiss, active, conflictPrompt } = useUploads(props);
  const [rejections, setRejections] = useState<Rejection[]>([]);
  const { getRootProps, getInputProps, isDragActive, isDragAccept, isDragReject } = useDropzone({
    accept: ACCEPT,
    maxSize: MAX_FILE_SIZE,
    // The limit is 10 files in total, counting the list, and a drop over it is refused whole:
    // react-dropzone's maxFiles would keep the first few, so the count is checked here.
    onDrop: (accepted, dropRejections) => {
      const tooMany = active + accepted.length + dropRejections.length > MAX_FILES;
      if (tooMany) {
        toast({ title: 'Too many files', description: `Maximum ${MAX_FILES} files allowed`, variant: 'destructive' });
        const everyFile = [...accepted, ...dropRejections.map((r) => r.file)];
        setRejections(everyFile.map((file) => ({ name: file.name, messages: [rejectionMessage('too-many-files')] })));
        return;
      }
      setRejections(rejectionsFrom(dropRejections));
      void addFiles(accepted);
    },
  });

  const tone = isDragReject
    ? 'border-red-400 bg-red-50 dark:bg-red-950/40'
    : isDragAccept || isDragActive
      ? 'border-indigo-500 bg-indigo-50 dark:bg-indigo-950/40'
      : 'border-slate-300 hover:border-indigo-400 dark:border-slate-600';

  return (
    <section className={props.className} aria-label="Upload files">
      <div
        {...getRootProps({
          className: `flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed p-6 text-center transition-colors focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 sm:p-8 ${tone}`,
        })}
        data-testid="dropzone"
        data-state={isDragReject ? 'reject' : isDragAccept ? 'accept' : isDragActive ? 'active' : 'idle'}
      >
        <input {...getInputProps({ 'aria-label': 'Choose files to upload' })} />
        <svg
          viewBox="0 0 24 24"
          className="mb-2 h-10 w-10 text-slate-400"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <path
            d="M12 16V4m0 0l-4 4m4-4l4 4M4 16v2a2 2 0 002 2h12a2 2 0 002-2v-2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <p className="text-sm font-medium text-slate-900 dark:text-slate-100">
          {isDragReject
            ? 'Some files will be rejected'
            : isDragActive
              ? 'Drop the files here...'
              : 'Drag & drop files here, or click to select files'}
        </p>
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          Up to {MAX_FILES} files, 50 MB each: images, videos, PDF, text and Word documents
        </p>
      </div>
      <RejectedFiles rejections={rejections} />
      <UploadList items={items} onDismiss={dismiss} />
      <UploadConflictDialog
        prompt={conflictPrompt}
        where={props.folderId ? 'this folder' : 'the top level of your files'}
      />
    </section>
  );
}

import { DialogPanel, DialogTitle } from '@headlessui/react';
import { type ReactNode, Suspense, useEffect, useState } from 'react';
import { graphql, type PreloadedQuery, useFragment, usePreloadedQuery, useQueryLoader } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { formatDateTime, formatFileSize } from '../../lib/format.ts';
import { appPath } from '../../lib/globalId.ts';
import { FileIcon } from '../../ui/icons.tsx';
import { formatCoordinates, previewUrl } from '../../lib/pictures.ts';
import { DOC_TYPE, DOCX_TYPE, DocumentContent } from './DocumentPreview.tsx';
import { Fact, PrevNextButtons, useArrowKeys, ViewerDialog, ViewerHeader } from '../../ui/MediaViewer.tsx';
import type { FilePreview_file$data, FilePreview_file$key } from './__generated__/FilePreview_file.graphql';
import type { FilePreviewQuery } from './__generated__/FilePreviewQuery.graphql';
import { folderPathText } from './options.ts';

// The File Manager's preview (issue 53): the file shown in place (picture, video, PDF, text, Word), its
// details, and the previous / next file of the list on screen. Its address is the list's with
// ?preview=<file id>, so a reload keeps it open; its query is loaded when it opens.

const previewQuery = graphql`
  query FilePreviewQuery($id: ID!) {
    node(id: $id) {
      ...FilePreview_file @alias(as: "file")
    }
  }
`;

/** Text files show their beginning; a longer one says so and offers the download. */
const TEXT_LIMIT = 512 * 1024;

type Kind = 'image' | 'video' | 'pdf' | 'text' | 'docx' | 'doc' | 'other';

export function previewKind(mimeType: string): Kind {
  if (mimeType.startsWith('image/')) return 'image';
  if (mimeType.startsWith('video/')) return 'video';
  if (mimeType === 'application/pdf') return 'pdf';
  if (mimeType.startsWith('text/')) return 'text';
  if (mimeType === DOCX_TYPE) return 'docx';
  if (mimeType === DOC_TYPE) return 'doc';
  return 'other';
}

function downloadUrl(objectPath: string) {
  return `${objectPath}?download`;
}

/** A text file's first TEXT_LIMIT bytes, read when it is shown. */
function TextContent({ objectPath, name }: { objectPath: string; name: string }) {
  const [text, setText] = useState<{ body: string; cut: boolean } | 'failed' | null>(null);
  useEffect(() => {
    const aborted = new AbortController();
    setText(null);
    fetch(objectPath, {
      credentials: 'include',
      signal: aborted.signal,
      headers: { Range: `bytes=0-${TEXT_LIMIT - 1}` },
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = await response.text();
        const total = Number(response.headers.get('content-range')?.split('/')[1] ?? body.length);
        setText({ body, cut: total > TEXT_LIMIT });
      })
      .catch(() => !aborted.signal.aborted && setText('failed'));
    return () => aborted.abort();
  }, [objectPath]);
  if (text === null) return <p className="text-sm text-slate-300">Loading…</p>;
  if (text === 'failed') return <NoPreview name={name} objectPath={objectPath} reason="The text could not be read." />;
  return (
    <div className="h-full w-full overflow-auto rounded bg-white p-4 text-slate-900 dark:bg-slate-900 dark:text-slate-100">
      <pre
        className="font-mono text-sm break-words whitespace-pre-wrap"
        data-testid="preview-text"
        // A scrollable region must be reachable from the keyboard.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls; keyboard users need to reach it
        tabIndex={0}
      >
        {text.body}
      </pre>
      {text.cut && (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-300">
          Only the beginning is shown; download the file for all of it.
        </p>
      )}
    </div>
  );
}

function NoPreview({ name, objectPath, reason }: { name: string; objectPath: string; reason: string }) {
  return (
    <div className="flex flex-col items-center gap-3 text-center text-slate-200">
      <FileIcon className="h-16 w-16 text-slate-400" />
      <p className="text-sm">{reason}</p>
      <a
        href={downloadUrl(objectPath)}
        download={name}
        className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
      >
        Download {name}
      </a>
    </div>
  );
}

function Content({ file }: { file: FilePreview_file$data }) {
  const [failed, setFailed] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new file gets a new try
  useEffect(() => setFailed(false), [file.id]);
  const kind = previewKind(file.mimeType);
  const thumbnails = (file.metadata as { thumbnails?: { preview?: boolean } } | null)?.thumbnails;
  if (failed) {
    return <NoPreview name={file.name} objectPath={file.objectPath} reason="This browser cannot show this file." />;
  }
  switch (kind) {
    case 'image':
      return (
        <img
          key={file.id}
          src={thumbnails?.preview ? previewUrl(file.objectPath) : file.objectPath}
          alt={file.name}
          onError={() => setFailed(true)}
          className="max-h-full max-w-full object-contain"
          data-testid="preview-image"
        />
      );
    case 'video':
      return (
        // biome-ignore lint/a11y/useMediaCaption: scouting footage has no captions to offer
        <video
          key={file.id}
          src={file.objectPath}
          controls
          preload="metadata"
          onError={() => setFailed(true)}
          className="max-h-full max-w-full"
          aria-label={file.name}
          data-testid="preview-video"
        />
      );
    case 'pdf':
      return (
        <iframe
          key={file.id}
          src={file.objectPath}
          title={`PDF: ${file.name}`}
          className="h-full w-full rounded bg-white"
          data-testid="preview-pdf"
        />
      );
    case 'text':
      return <TextContent objectPath={file.objectPath} name={file.name} />;
    case 'docx':
      return (
        <DocumentContent
          key={file.id}
          objectPath={file.objectPath}
          name={file.name}
          failed={(reason) => <NoPreview name={file.name} objectPath={file.objectPath} reason={reason} />}
        />
      );
    case 'doc':
      // Word 97–2003's binary format: nothing here reads it.
      return (
        <NoPreview
          name={file.name}
          objectPath={file.objectPath}
          reason="Preview is not available for .doc files; download to open it."
        />
      );
    default:
      return (
        <NoPreview
          name={file.name}
          objectPath={file.objectPath}
          reason="There is no preview for this type of file. Download it to open it."
        />
      );
  }
}

function Details({ file }: { file: FilePreview_file$data }) {
  const image = file.image;
  return (
    <dl className="mt-4 space-y-3">
      <Fact label="Type">{file.mimeType}</Fact>
      <Fact label="Size">{formatFileSize(file.size)}</Fact>
      <Fact label="Uploaded">{formatDateTime(file.createdAt as string)}</Fact>
      <Fact label="Modified">{formatDateTime(file.updatedAt as string)}</Fact>
      {file.folderPath && <Fact label="Folder">{folderPathText(file.folderPath)}</Fact>}
      <Fact label={`Versions (${file.versions.length})`}>
        <ul className="space-y-0.5" data-testid="preview-versions">
          {file.versions.map((v) => (
            <li key={v.id}>
              Version {v.version} · {formatFileSize(v.size)} · {formatDateTime(v.createdAt as string)}
            </li>
          ))}
        </ul>
      </Fact>
      <Fact label="In galleries">
        {file.galleries.length === 0 ? (
          'None'
        ) : (
          <ul className="space-y-0.5" data-testid="preview-galleries">
            {file.galleries.map((g) => (
              <li key={g.id} className="break-words">
                <Link className="underline hover:text-indigo-300" to={appPath.gallery(g.id)}>
                  {g.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Fact>
      {file.tags.length > 0 && <Fact label="Tags">{file.tags.join(', ')}</Fact>}
      {image && (
        <>
          <Fact label="Dimensions">{`${image.width} × ${image.height}`}</Fact>
          {(image.camera || image.lens) && (
            <Fact label="Camera">{[image.camera, image.lens].filter(Boolean).join(' · ')}</Fact>
          )}
          {image.takenAt && <Fact label="Taken">{formatDateTime(image.takenAt)}</Fact>}
          {image.gps && <Fact label="Location">{formatCoordinates(image.gps)}</Fact>}
        </>
      )}
    </dl>
  );
}

function Preview({
  reference,
  position,
  onClose,
  nav,
}: {
  reference: PreloadedQuery<FilePreviewQuery>;
  position: string | null;
  onClose: () => void;
  nav: ReactNode;
}) {
  const { node } = usePreloadedQuery<FilePreviewQuery>(previewQuery, reference);
  const file = useFragment<FilePreview_file$key>(
    graphql`
      fragment FilePreview_file on File {
        id
        name
        mimeType
        size
        objectPath
        metadata
        tags
        createdAt
        updatedAt
        folderPath
        versions {
          id
          version
          size
          createdAt
        }
        galleries {
          id
          name
        }
        image {
          width
          height
          camera
          lens
          takenAt
          gps {
            latitude
            longitude
          }
        }
      }
    `,
    node?.file ?? null,
  );
  if (!file) {
    return (
      <Frame title="File not found" position={position} onClose={onClose} nav={nav} aside={null}>
        <p className="text-sm text-slate-200">This file was deleted, or you may not see it.</p>
      </Frame>
    );
  }
  return (
    <Frame
      title={file.name}
      position={position}
      onClose={onClose}
      nav={nav}
      aside={
        <>
          <div className="mt-4 flex flex-wrap gap-2">
            <a
              href={downloadUrl(file.objectPath)}
              download={file.name}
              className="rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
            >
              Download
            </a>
          </div>
          <Details file={file} />
        </>
      }
    >
      <Content file={file} />
    </Frame>
  );
}

function Frame({
  title,
  position,
  onClose,
  nav,
  aside,
  children,
}: {
  title: string;
  position: string | null;
  onClose: () => void;
  nav: ReactNode;
  aside: ReactNode;
  children: ReactNode;
}) {
  return (
    <DialogPanel className="flex h-full w-full flex-col lg:flex-row" data-testid="file-preview">
      <div className="relative flex min-h-0 flex-1 items-center justify-center p-2 sm:p-6 sm:px-14">
        {children}
        {nav}
      </div>
      <aside className="max-h-[45vh] w-full overflow-y-auto border-t border-white/10 bg-slate-950 p-4 text-white lg:max-h-none lg:w-80 lg:border-t-0 lg:border-l">
        <ViewerHeader onClose={onClose} closeLabel="Close preview">
          <DialogTitle className="min-w-0 text-base font-semibold break-words">{title}</DialogTitle>
        </ViewerHeader>
        {position && <p className="mt-1 text-xs text-slate-400">{position}</p>}
        {aside}
      </aside>
    </DialogPanel>
  );
}

/**
 * The preview of `fileId` (a File id, or null when closed) over the File Manager. `siblings` are
 * the ids of the files listed, in their order: the arrows (and the arrow keys) go through them.
 */
export function FilePreview({
  fileId,
  siblings,
  onShow,
  onClose,
}: {
  fileId: string | null;
  siblings: readonly string[];
  onShow: (fileId: string) => void;
  onClose: () => void;
}) {
  const [reference, load, dispose] = useQueryLoader<FilePreviewQuery>(previewQuery);
  useEffect(() => {
    if (fileId) load({ id: fileId }, { fetchPolicy: 'store-or-network' });
    else dispose();
  }, [fileId, load, dispose]);

  const index = fileId ? siblings.indexOf(fileId) : -1;
  const previous = index > 0 ? siblings[index - 1] : undefined;
  const next = index >= 0 && index < siblings.length - 1 ? siblings[index + 1] : undefined;

  const showPrevious = previous ? () => onShow(previous) : undefined;
  const showNext = next ? () => onShow(next) : undefined;
  // Arrow keys in a video or a text field are theirs.
  useArrowKeys(fileId !== null, showPrevious, showNext, (target) =>
    Boolean((target as HTMLElement | null)?.closest?.('video, input, textarea, select')),
  );

  const nav = <PrevNextButtons noun="file" onPrevious={showPrevious} onNext={showNext} />;
  const position = index >= 0 ? `${index + 1} of ${siblings.length}` : null;

  return (
    <ViewerDialog open={fileId !== null} onClose={onClose}>
      <Suspense
        fallback={
          <p role="status" className="m-auto text-sm text-slate-200">
            Loading preview…
          </p>
        }
      >
        {reference && <Preview reference={reference} position={position} onClose={onClose} nav={nav} />}
      </Suspense>
    </ViewerDialog>
  );
}

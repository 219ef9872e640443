import { graphql, readInlineData } from 'react-relay/hooks';
import { rawIdOf } from '../lib/globalId.ts';
import type { storedFile_file$key } from './__generated__/storedFile_file.graphql';
import type { StoredFile } from './transport.ts';

/** What the upload queue keeps of a filed upload, from the mutation that filed it. */
export function storedFileOf(key: storedFile_file$key): StoredFile {
  const file = readInlineData(
    graphql`
      fragment storedFile_file on File @inline {
        id
        name
        size
        mimeType
        objectPath
        currentVersion
      }
    `,
    key,
  );
  return {
    id: rawIdOf(file.id),
    name: file.name,
    objectPath: file.objectPath,
    mimeType: file.mimeType,
    size: file.size,
    version: file.currentVersion,
  };
}

import yauzl from 'yauzl';

/** The entries of a ZIP, by name, in archive order. */
export function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Buffer>();
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The entries of a ZIP of text files, by name, in archive order, read as UTF-8. */
export async function unzipText(bytes: Buffer): Promise<Map<string, string>> {
  const entries = await unzip(bytes);
  return new Map([...entries].map(([name, content]) => [name, content.toString('utf8')]));
}

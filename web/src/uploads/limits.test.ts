import { describe, expect, it } from 'vitest';
import { checkFiles, GALLERY_ACCEPT, isAcceptedType, isImage, MAX_FILE_SIZE, rejectionMessage } from './limits.ts';

const file = (name: string, type: string, size = 10) => ({ name, type, size });

describe('upload limits', () => {
  it('accepts the spec types by MIME type or by extension', () => {
    for (const name of [
      'a.png',
      'a.JPG',
      'a.jpeg',
      'a.gif',
      'a.webp',
      'a.mp4',
      'a.mov',
      'a.avi',
      'a.mkv',
      'a.pdf',
      'a.txt',
      'a.md',
      'a.doc',
      'a.docx',
    ]) {
      expect(isAcceptedType(file(name, '')), name).toBe(true);
    }
    expect(isAcceptedType(file('photo', 'image/png'))).toBe(true);
    expect(isAcceptedType(file('tool.exe', 'application/x-msdownload'))).toBe(false);
    expect(isAcceptedType(file('archive.zip', ''))).toBe(false);
  });

  it('rejects with the spec messages', () => {
    const { accepted, rejected, tooMany } = checkFiles([
      file('ok.png', 'image/png'),
      file('big.mp4', 'video/mp4', MAX_FILE_SIZE + 1),
      file('bad.exe', 'application/x-msdownload'),
    ]);
    expect(tooMany).toBe(false);
    expect(accepted.map((f) => f.name)).toEqual(['ok.png']);
    expect(rejected).toEqual([
      { name: 'big.mp4', messages: ['File is larger than 52428800 bytes'] },
      { name: 'bad.exe', messages: [expect.stringMatching(/^File type must be one of \.png, \.jpg/)] },
    ]);
  });

  it('accepts a file of exactly 50 MB', () => {
    expect(checkFiles([file('edge.mov', 'video/quicktime', MAX_FILE_SIZE)]).accepted).toHaveLength(1);
  });

  it('counts the files already in the list towards the 10-file limit', () => {
    const four = Array.from({ length: 4 }, (_, i) => file(`${i}.png`, 'image/png'));
    expect(checkFiles(four, 6).accepted).toHaveLength(4);
    const result = checkFiles(four, 7);
    expect(result.tooMany).toBe(true);
    expect(result.accepted).toHaveLength(0);
    expect(result.rejected[0]?.messages).toEqual(['Too many files']);
  });

  it('maps react-dropzone codes', () => {
    expect(rejectionMessage('too-many-files')).toBe('Too many files');
    expect(rejectionMessage('file-too-small')).toBe('File is smaller than 1 bytes');
    expect(rejectionMessage('something-else')).toBe('Upload failed');
  });

  it('knows images', () => {
    expect(isImage(file('a.png', 'image/png'))).toBe(true);
    expect(isImage(file('a.webp', ''))).toBe(true);
    expect(isImage(file('a.pdf', 'application/pdf'))).toBe(false);
  });
});

describe("a gallery's Upload Photos", () => {
  it('accepts photos and videos only, and says which types with the spec message', () => {
    expect(Object.keys(GALLERY_ACCEPT).every((type) => /^(image|video)\//.test(type))).toBe(true);
    expect(GALLERY_ACCEPT['image/jpeg']).toEqual(['.jpg', '.jpeg']);
    expect(GALLERY_ACCEPT['video/mp4']).toEqual(['.mp4']);
    expect(GALLERY_ACCEPT['text/plain']).toBeUndefined();
    expect(rejectionMessage('file-invalid-type', 'x', GALLERY_ACCEPT)).toBe(
      'File type must be one of .png, .jpg, .jpeg, .gif, .webp, .mp4, .mov, .avi, .mkv',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { answerConflict, type BatchResult, batchSummary, type ConflictQuestion, findConflicts } from './conflicts.ts';

const question = (key: string, name = `${key}.jpg`): ConflictQuestion => ({
  key,
  conflict: { name, existing: { id: `old-${key}`, name }, keepBothName: name.replace('.jpg', ' (1).jpg') },
});

describe('answerConflict', () => {
  const questions = [question('a'), question('b'), question('c')];

  it('answers the next open question only, or every open one with apply to all', () => {
    let answers = answerConflict(questions, new Map(), 'replace', false);
    expect([...answers]).toEqual([['a', 'replace']]);
    answers = answerConflict(questions, answers, 'skip', true);
    expect([...answers]).toEqual([
      ['a', 'replace'],
      ['b', 'skip'],
      ['c', 'skip'],
    ]);
  });
});

describe('batchSummary', () => {
  const uploaded = (name: string, storedAs = name): BatchResult => ({
    kind: 'uploaded',
    name,
    storedAs,
    replaced: false,
  });
  const replaced = (name: string): BatchResult => ({ kind: 'uploaded', name, storedAs: name, replaced: true });
  const skipped = (name: string): BatchResult => ({ kind: 'skipped', name });
  const failed = (name: string): BatchResult => ({ kind: 'failed', name });

  it('says what happened to each kind of file, in the spec words for a plain batch', () => {
    expect(batchSummary([uploaded('a.jpg')])).toEqual({
      title: 'Upload successful',
      description: '1 file(s) uploaded successfully.',
      variant: 'default',
    });
    expect(
      batchSummary([uploaded('barn.jpg', 'barn (1).jpg'), replaced('diner.jpg'), skipped('x.jpg'), skipped('y.jpg')])
        .description,
    ).toBe('Uploaded as barn (1).jpg. Replaced diner.jpg. Skipped 2 files.');
    expect(batchSummary([skipped('x.jpg')])).toMatchObject({
      title: 'Nothing uploaded',
      description: 'Skipped 1 file.',
    });
    expect(batchSummary([uploaded('a.jpg', 'a (1).jpg'), uploaded('b.jpg', 'b (1).jpg'), failed('c.jpg')])).toEqual({
      title: 'Upload error',
      description: '2 files kept beside files of the same name. 1 file failed to upload.',
      variant: 'destructive',
    });
  });
});

describe('findConflicts', () => {
  it('asks once per distinct name about the folder (none for the top level)', async () => {
    const urls: string[] = [];
    const request = async <T>(_method: string, url: string) => {
      urls.push(url);
      return { conflicts: [] } as T;
    };
    await findConflicts(request, 'f1', ['a b.jpg', 'a b.jpg', 'c&d.jpg']);
    await findConflicts(request, null, ['x.jpg']);
    expect(await findConflicts(request, null, [])).toEqual([]);
    expect(urls).toEqual([
      '/api/files/conflicts?folderId=f1&names=a+b.jpg&names=c%26d.jpg',
      '/api/files/conflicts?names=x.jpg',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { answerConflict, batchSummary, type ConflictQuestion, findConflicts } from './conflicts.ts';

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
  it('says what happened to each kind of file, in the spec words for a plain batch', () => {
    expect(batchSummary([{ kind: 'uploaded', name: 'a.jpg', storedAs: 'a.jpg', replaced: false }])).toEqual({
      title: 'Upload successful',
      description: '1 file(s) uploaded successfully.',
      variant: 'default',
    });
    expect(
      batchSummary([
        { kind: 'uploaded', name: 'barn.jpg', storedAs: 'barn (1).jpg', replaced: false },
        { kind: 'uploaded', name: 'diner.jpg', storedAs: 'diner.jpg', replaced: true },
        { kind: 'skipped', name: 'x.jpg' },
        { kind: 'skipped', name: 'y.jpg' },
      ]).description,
    ).toBe('Uploaded as barn (1).jpg. Replaced diner.jpg. Skipped 2 files.');
    expect(batchSummary([{ kind: 'skipped', name: 'x.jpg' }])).toMatchObject({
      title: 'Nothing uploaded',
      description: 'Skipped 1 file.',
    });
    expect(
      batchSummary([
        { kind: 'uploaded', name: 'a.jpg', storedAs: 'a (1).jpg', replaced: false },
        { kind: 'uploaded', name: 'b.jpg', storedAs: 'b (1).jpg', replaced: false },
        { kind: 'failed', name: 'c.jpg' },
      ]),
    ).toEqual({
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

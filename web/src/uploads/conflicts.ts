// Uploads and imports whose name already exists in the target folder (issue #16): the app asks
// before sending them, and the server's onConflict (api/src/files/uploads.ts) does what was chosen.

import type { NameConflictJson } from '../../../api/src/files/contract.ts';
import { countOf } from '../lib/format.ts';

export type ConflictChoice = 'keepBoth' | 'replace' | 'skip';

/** A name already taken in the folder, as GET /api/files/conflicts answers it. */
export type NameConflict = NameConflictJson;

type Request = <T>(method: string, url: string, body?: unknown) => Promise<T>;

/** Which of `names` are taken in the folder (null: the top level). */
export async function findConflicts(
  request: Request,
  folderId: string | null | undefined,
  names: string[],
): Promise<NameConflict[]> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return [];
  const query = new URLSearchParams();
  if (folderId) query.set('folderId', folderId);
  for (const name of unique) query.append('names', name);
  const answer = await request<{ conflicts: NameConflict[] }>('GET', `/api/files/conflicts?${query}`);
  return answer.conflicts;
}

/** One question of the conflict dialog: a file of the batch whose name is taken. */
export interface ConflictQuestion {
  /** The batch entry it is about (an upload's id, an import item's id). */
  key: string;
  conflict: NameConflict;
}

/**
 * Walks the questions of a batch: each answer applies to its own file, or (apply to all) to it
 * and every one after it. Answers are kept by key.
 */
export function answerConflict(
  questions: ConflictQuestion[],
  answers: Map<string, ConflictChoice>,
  choice: ConflictChoice,
  applyToAll: boolean,
): Map<string, ConflictChoice> {
  const next = new Map(answers);
  const open = questions.filter((q) => !next.has(q.key));
  for (const question of applyToAll ? open : open.slice(0, 1)) next.set(question.key, choice);
  return next;
}

/** What became of one file of a batch, for the summary. */
export type BatchResult =
  | { kind: 'uploaded'; name: string; storedAs: string; replaced: boolean }
  | { kind: 'skipped'; name: string }
  | { kind: 'failed'; name: string };

/** The words of a batch's toast: uploads and imports say the same things their own way. */
export interface BatchWords {
  count: (n: number) => string;
  done: string;
  doing: string;
  successTitle: string;
  errorTitle: string;
  nothingTitle: string;
}

const files = (n: number) => countOf(n, 'file');

export const UPLOAD_WORDS: BatchWords = {
  // The spec's own toast text for a plain batch: "3 file(s) uploaded successfully".
  count: (n) => `${n} file(s)`,
  done: 'uploaded',
  doing: 'upload',
  successTitle: 'Upload successful',
  errorTitle: 'Upload error',
  nothingTitle: 'Nothing uploaded',
};

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * The toast after a batch, in words that say what happened to names that were taken:
 * 'Uploaded as barn (1).jpg', 'Replaced barn.jpg', 'Skipped 2 files'.
 */
export function batchSummary(results: BatchResult[], words: BatchWords = UPLOAD_WORDS) {
  const uploaded = results.filter((r) => r.kind === 'uploaded');
  const skipped = results.filter((r) => r.kind === 'skipped').length;
  const failed = results.filter((r) => r.kind === 'failed').length;
  const renamed = uploaded.filter((r) => r.storedAs !== r.name);
  const replaced = uploaded.filter((r) => r.replaced);
  const plain = uploaded.length - renamed.length - replaced.length;
  const parts: string[] = [];
  if (plain > 0) parts.push(`${words.count(plain)} ${words.done} successfully`);
  if (renamed.length === 1) parts.push(`${capitalized(words.done)} as ${renamed[0]?.storedAs}`);
  else if (renamed.length > 1) parts.push(`${files(renamed.length)} kept beside files of the same name`);
  if (replaced.length === 1) parts.push(`Replaced ${replaced[0]?.name}`);
  else if (replaced.length > 1) parts.push(`Replaced ${files(replaced.length)}`);
  if (skipped > 0) parts.push(`Skipped ${files(skipped)}`);
  if (failed > 0) parts.push(`${files(failed)} failed to ${words.doing}`);
  const title = failed > 0 ? words.errorTitle : uploaded.length === 0 ? words.nothingTitle : words.successTitle;
  return { title, description: `${parts.join('. ')}.`, variant: failed > 0 ? 'destructive' : 'default' } as const;
}

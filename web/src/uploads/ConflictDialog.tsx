import { useCallback, useId, useRef, useState } from 'react';
import { Button } from '../ui/Button.tsx';
import { Dialog, DialogActions } from '../ui/Dialog.tsx';
import { answerConflict, type ConflictChoice, type ConflictQuestion } from './conflicts.ts';

interface Asking {
  questions: ConflictQuestion[];
  answers: Map<string, ConflictChoice>;
}

/** What a conflict question shows and does, as useConflictQuestions hands it to the view. */
export interface ConflictPrompt {
  question: ConflictQuestion;
  /** 1-based place of this question in the batch's questions, and how many there are. */
  position: number;
  total: number;
  answer: (choice: ConflictChoice, applyToAll: boolean) => void;
  cancel: () => void;
}

/**
 * Asks about each file of a batch whose name is taken, one at a time. `ask` resolves with an
 * answer for every question, or null when the person cancelled the batch.
 */
export function useConflictQuestions() {
  const [asking, setAsking] = useState<Asking | null>(null);
  const current = useRef<Asking | null>(null);
  const resolver = useRef<((answers: Map<string, ConflictChoice> | null) => void) | null>(null);

  const show = useCallback((next: Asking | null) => {
    current.current = next;
    setAsking(next);
  }, []);

  const ask = useCallback(
    (questions: ConflictQuestion[]) =>
      new Promise<Map<string, ConflictChoice> | null>((resolve) => {
        if (questions.length === 0) {
          resolve(new Map());
          return;
        }
        resolver.current = resolve;
        show({ questions, answers: new Map() });
      }),
    [show],
  );

  const finish = useCallback(
    (answers: Map<string, ConflictChoice> | null) => {
      show(null);
      resolver.current?.(answers);
      resolver.current = null;
    },
    [show],
  );

  const answer = useCallback(
    (choice: ConflictChoice, applyToAll: boolean) => {
      const now = current.current;
      if (!now) return;
      const answers = answerConflict(now.questions, now.answers, choice, applyToAll);
      if (answers.size === now.questions.length) finish(answers);
      else show({ ...now, answers });
    },
    [finish, show],
  );

  const cancel = useCallback(() => finish(null), [finish]);

  const question = asking?.questions.find((q) => !asking.answers.has(q.key));
  const prompt: ConflictPrompt | null =
    asking && question
      ? { question, position: asking.answers.size + 1, total: asking.questions.length, answer, cancel }
      : null;
  return { ask, prompt };
}

/**
 * The question itself: keep both (the default), replace, or skip this file, optionally for the
 * rest of the batch too. `where` names the folder in the person's words ('this folder').
 */
export function ConflictQuestionView({ prompt, where }: { prompt: ConflictPrompt; where: string }) {
  const [applyToAll, setApplyToAll] = useState(false);
  const checkboxId = useId();
  const { conflict } = prompt.question;
  const rest = prompt.total - prompt.position;
  return (
    <div data-testid="upload-conflict">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <span className="font-medium break-all text-slate-900 dark:text-slate-100">{conflict.name}</span> is already in{' '}
        {where}.
      </p>
      <ul className="mt-3 space-y-1 text-sm text-slate-600 dark:text-slate-400">
        <li>
          <span className="font-medium text-slate-800 dark:text-slate-200">Keep both</span> saves the new one as{' '}
          <span className="break-all">{conflict.keepBothName}</span>.
        </li>
        <li>
          <span className="font-medium text-slate-800 dark:text-slate-200">Replace</span> makes it a new version of the
          existing file: galleries showing it will show the new one.
        </li>
        <li>
          <span className="font-medium text-slate-800 dark:text-slate-200">Skip</span> leaves this file out.
        </li>
      </ul>
      {rest > 0 && (
        <div className="mt-4 flex items-center gap-2">
          <input
            id={checkboxId}
            type="checkbox"
            checked={applyToAll}
            onChange={(event) => setApplyToAll(event.target.checked)}
            className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:border-slate-600 dark:bg-slate-800"
          />
          <label htmlFor={checkboxId} className="text-sm text-slate-700 dark:text-slate-300">
            Apply to all ({rest} more {rest === 1 ? 'file' : 'files'} with names already taken)
          </label>
        </div>
      )}
      <DialogActions>
        <Button variant="ghost" onClick={prompt.cancel} className="sm:mr-auto">
          Cancel
        </Button>
        <Button variant="outline" onClick={() => prompt.answer('skip', applyToAll)}>
          Skip
        </Button>
        <Button variant="outline" onClick={() => prompt.answer('replace', applyToAll)}>
          Replace
        </Button>
        <Button onClick={() => prompt.answer('keepBoth', applyToAll)} data-autofocus>
          Keep both
        </Button>
      </DialogActions>
    </div>
  );
}

/** The upload batch's conflict question as a dialog of its own. */
export function UploadConflictDialog({ prompt, where }: { prompt: ConflictPrompt | null; where: string }) {
  return (
    <Dialog
      open={prompt !== null}
      onClose={() => prompt?.cancel()}
      title={
        prompt && prompt.total > 1
          ? `File already exists (${prompt.position} of ${prompt.total})`
          : 'File already exists'
      }
    >
      {/* A new view per question: 'Apply to all' starts unticked for each file. */}
      {prompt && <ConflictQuestionView key={prompt.question.key} prompt={prompt} where={where} />}
    </Dialog>
  );
}

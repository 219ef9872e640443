import { useId, useState } from 'react';
import { Button } from '../ui/Button.tsx';
import { Dialog, DialogActions } from '../ui/Dialog.tsx';
import type { ConflictPrompt } from './useConflictQuestions.ts';

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

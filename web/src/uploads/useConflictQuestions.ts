import { useCallback, useRef, useState } from 'react';
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

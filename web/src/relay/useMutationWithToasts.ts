import { type GraphQLTaggedNode, type UseMutationConfig, useMutation } from 'react-relay/hooks';
import type { Disposable, MutationParameters } from 'relay-runtime';
import { isUnauthorizedError } from '../lib/unauthorized.ts';
import { type ToastInput, toast } from '../ui/toast.tsx';

/** A mutation's answer: its success, or one of its errors (the schema's `… on Error { message }`). */
interface Outcome {
  readonly __typename: string;
  readonly message?: string;
}

export interface MutationToasts<M extends MutationParameters> {
  /** The field of the answer that holds the outcome, e.g. `(r) => r.createTask`. */
  outcome(response: M['response']): Outcome | null | undefined;
  /** The success toast, from the answer when it names what was done; a call may give its own. */
  success?: ToastInput | ((response: M['response']) => ToastInput);
  /** Said when it fails; with `serverMessage`, the server's own words when it gives some. */
  failure: string;
  serverMessage?: boolean;
}

/**
 * The toasts of creating or deleting one thing, worded alike across the app: "Gallery deleted
 * successfully!" or "Failed to delete gallery. Please try again."
 */
export function toastsFor(verb: 'create' | 'delete', noun: 'File' | 'Folder' | 'Gallery' | 'Task') {
  const done = { create: 'created', delete: 'deleted' }[verb];
  return {
    success: { title: 'Success', description: `${noun} ${done} successfully!` },
    failure: `Failed to ${verb} ${noun.toLowerCase()}. Please try again.`,
  };
}

export type CommitWithToasts<M extends MutationParameters> = (
  config: Omit<UseMutationConfig<M>, 'onCompleted' | 'onError'> & {
    /** This call's success toast, when it says what the call knows (a name, an address). */
    success?: ToastInput;
    onSuccess?(response: M['response']): void;
    /**
     * Instead of the error toast: a form that shows the reason by its fields (the toast would cover
     * the form's buttons). Gets the server's words, or the failure text.
     */
    onFailure?(message: string): void;
    /** After either outcome, once its toast is up: to end a busy state. */
    onSettled?(): void;
  },
) => Disposable;

/**
 * useMutation that says how it went: the success toast (then `onSuccess`), or an error toast for a
 * refused or failed mutation. A call that found the session gone says nothing more: the 401 handling
 * already told the person and is taking them to sign in.
 */
export function useMutationWithToasts<M extends MutationParameters>(
  mutation: GraphQLTaggedNode,
  toasts: MutationToasts<M>,
): [CommitWithToasts<M>, boolean] {
  const [commit, pending] = useMutation<M>(mutation);
  const fail = (message?: string) =>
    toast({ title: 'Error', description: message || toasts.failure, variant: 'destructive' });
  const run: CommitWithToasts<M> = ({ success, onSuccess, onFailure, onSettled, ...config }) =>
    commit({
      ...config,
      onCompleted(response) {
        const outcome = toasts.outcome(response);
        if (outcome?.__typename.endsWith('Success')) {
          const said = success ?? (typeof toasts.success === 'function' ? toasts.success(response) : toasts.success);
          if (said) toast(said);
          onSuccess?.(response);
        } else {
          const said = toasts.serverMessage ? outcome?.message : undefined;
          if (onFailure) onFailure(said || toasts.failure);
          else fail(said);
        }
        onSettled?.();
      },
      onError(error) {
        if (isUnauthorizedError(error)) onFailure?.('');
        else if (onFailure) onFailure(toasts.failure);
        else fail();
        onSettled?.();
      },
    });
  return [run, pending];
}

import { type GraphQLTaggedNode, type UseMutationConfig, useMutation } from 'react-relay';
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
  outcome(response: M['response']): Outcome;
  success: ToastInput;
  /** Said when it fails; with `serverMessage`, the server's own words when it gives some. */
  failure: string;
  serverMessage?: boolean;
}

export type CommitWithToasts<M extends MutationParameters> = (
  config: Omit<UseMutationConfig<M>, 'onCompleted' | 'onError'> & { onSuccess?(response: M['response']): void },
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
  const run: CommitWithToasts<M> = ({ onSuccess, ...config }) =>
    commit({
      ...config,
      onCompleted(response) {
        const outcome = toasts.outcome(response);
        if (outcome.__typename.endsWith('Success')) {
          toast(toasts.success);
          onSuccess?.(response);
        } else {
          fail(toasts.serverMessage ? outcome.message : undefined);
        }
      },
      onError(error) {
        if (!isUnauthorizedError(error)) fail();
      },
    });
  return [run, pending];
}

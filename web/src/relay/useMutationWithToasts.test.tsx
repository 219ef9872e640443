import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RelayEnvironmentProvider } from 'react-relay/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DeleteTask, {
  type TasksScreenDeleteMutation,
} from '../screens/tasks/__generated__/TasksScreenDeleteMutation.graphql.ts';
import { dismissToast, Toaster } from '../ui/toast.tsx';
import { createEnvironment } from './environment.ts';
import { useMutationWithToasts } from './useMutationWithToasts.ts';

afterEach(() => {
  act(() => dismissToast());
  cleanup();
  vi.unstubAllGlobals();
});

/** The server answers the mutation with `deleteTask`. */
function answering(deleteTask: object) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ data: { deleteTask } }), { headers: { 'content-type': 'application/json' } }),
    ),
  );
}

interface ButtonProps {
  serverMessage?: boolean;
  onSuccess: () => void;
  onSettled?: () => void;
  success?: { title: string; description: string };
}

function DeleteButton({ serverMessage, onSuccess, onSettled, success }: ButtonProps) {
  const [commit] = useMutationWithToasts<TasksScreenDeleteMutation>(DeleteTask, {
    outcome: (r) => r.deleteTask,
    success: { title: 'Success', description: 'Task deleted successfully!' },
    failure: 'Failed to delete task. Please try again.',
    serverMessage,
  });
  return (
    <button type="button" onClick={() => commit({ variables: { id: 'VGFzazox' }, onSuccess, onSettled, success })}>
      Delete
    </button>
  );
}

function renderButton(props: ButtonProps) {
  render(
    <RelayEnvironmentProvider environment={createEnvironment()}>
      <DeleteButton {...props} />
      <Toaster />
    </RelayEnvironmentProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
}

describe('a mutation with its toasts', () => {
  it('says it worked, then runs onSuccess', async () => {
    answering({ __typename: 'MutationDeleteTaskSuccess', data: true });
    const onSuccess = vi.fn();
    renderButton({ onSuccess });
    await screen.findByText('Task deleted successfully!');
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('says it failed when the server refuses, in its own words only when asked to', async () => {
    answering({ __typename: 'BaseError', __isError: 'BaseError', message: 'Task not found.' });
    const onSuccess = vi.fn();
    renderButton({ onSuccess });
    await screen.findByText('Failed to delete task. Please try again.');
    cleanup();
    renderButton({ onSuccess, serverMessage: true });
    await screen.findByText('Task not found.');
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it('says what the call knows when it gives its own success, and ends a busy state after either outcome', async () => {
    answering({ __typename: 'MutationDeleteTaskSuccess', data: true });
    const onSettled = vi.fn();
    renderButton({
      onSuccess: vi.fn(),
      onSettled,
      success: { title: 'Success', description: 'Call the harbour office is gone.' },
    });
    await screen.findByText('Call the harbour office is gone.');
    expect(screen.queryByText('Task deleted successfully!')).toBeNull();
    expect(onSettled).toHaveBeenCalledTimes(1);
    cleanup();
    answering({ __typename: 'BaseError', __isError: 'BaseError', message: 'Task not found.' });
    renderButton({ onSuccess: vi.fn(), onSettled });
    await screen.findByText('Failed to delete task. Please try again.');
    expect(onSettled).toHaveBeenCalledTimes(2);
  });
});

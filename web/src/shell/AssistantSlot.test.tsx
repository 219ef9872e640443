import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RelayEnvironmentProvider } from 'react-relay';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEnvironment } from '../relay/environment.ts';
import { Toaster } from '../ui/toast.tsx';
import { AssistantSlot } from './AssistantSlot.tsx';

// The chat's keyboard and sending rules; the server side is covered by the e2e run.

interface Call {
  url: string;
  body: Record<string, unknown>;
}

function stubChat() {
  const calls: Call[] = [];
  let answer: (value: Response) => void = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init.body)) });
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    }),
  );
  return {
    calls,
    reply(text: string, status = 200) {
      const body =
        status === 200
          ? {
              conversation: { id: 'c1' },
              message: text,
              messageId: `a${calls.length}`,
              userMessageId: `u${calls.length}`,
              action: null,
            }
          : { message: text };
      answer(new Response(JSON.stringify(body), { status }));
    },
  };
}

function open() {
  render(
    <RelayEnvironmentProvider environment={createEnvironment()}>
      <MemoryRouter initialEntries={['/tasks']}>
        <AssistantSlot />
        <Toaster />
      </MemoryRouter>
    </RelayEnvironmentProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Open AI assistant' }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('assistant panel', () => {
  it('opens collapsed with the four quick actions, expands to an empty chat', () => {
    stubChat();
    open();
    for (const label of ['Search Files', 'Create Task', 'Schedule Event', 'Upload & Tag']) {
      expect(screen.getByRole('button', { name: label })).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Expand assistant' }));
    expect(screen.getByText('Start a conversation with the AI assistant')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Minimize assistant' }));
    expect(screen.getByRole('button', { name: 'Open AI assistant' })).toBeTruthy();
  });

  it('sends on Enter, not on Shift+Enter, never empty, and not twice while pending', async () => {
    const chat = stubChat();
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Expand assistant' }));
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;

    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(chat.calls).toHaveLength(0);

    fireEvent.change(box, { target: { value: 'Find rooftop photos' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(chat.calls).toHaveLength(0);

    fireEvent.keyDown(box, { key: 'Enter' });
    expect(chat.calls).toHaveLength(1);
    expect(chat.calls[0]).toMatchObject({
      url: '/api/ai/chat',
      body: {
        message: 'Find rooftop photos',
        conversationId: null,
        context: { currentPage: '/tasks', userRole: 'user' },
      },
    });
    expect(box.disabled).toBe(true);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(chat.calls).toHaveLength(1);

    await act(async () => chat.reply('I found 3 photos.'));
    expect(await screen.findByText('I found 3 photos.')).toBeTruthy();
    expect(box.disabled).toBe(false);

    fireEvent.change(box, { target: { value: 'Thanks' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(chat.calls[1]?.body.conversationId).toBe('c1');
  });

  it('a quick action expands and sends its prompt; a failure says so', async () => {
    const chat = stubChat();
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Create Task' }));
    expect(chat.calls[0]?.body.message).toBe('Create a task to review the location photos tomorrow');
    await act(async () => chat.reply('The AI service is unavailable', 503));
    expect(await screen.findByText('Failed to process your message. Please try again.')).toBeTruthy();
  });
});

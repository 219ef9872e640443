import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RelayEnvironmentProvider } from 'react-relay/hooks';
import { MemoryRouter } from 'react-router-dom';
import { type GraphQLResponse, Observable, type SubscribeFunction } from 'relay-runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEnvironment } from '../relay/environment.ts';
import { Toaster } from '../ui/toast.tsx';
import { AssistantSlot, QUICK_ACTIONS } from './AssistantSlot.tsx';

// The chat's keyboard and sending rules; the server side is covered by the e2e run.

interface Call {
  url: string;
  body: Record<string, unknown>;
}

let subscribe: SubscribeFunction;

function stubChat() {
  const calls: Call[] = [];
  const streams: { streamId: string; push(piece: object): void }[] = [];
  let answer: (value: Response) => void = () => {};
  // The assistantReply subscription, as the live connection would deliver it, piece by piece.
  subscribe = (_operation, variables) =>
    Observable.create<GraphQLResponse>((sink) => {
      streams.push({
        streamId: String(variables.streamId),
        push: (piece) => sink.next({ data: { assistantReply: { delta: '', done: false, error: null, ...piece } } }),
      });
    });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      calls.push({ url, body });
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    }),
  );
  return {
    calls,
    streams,
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
    <RelayEnvironmentProvider environment={createEnvironment(subscribe)}>
      <MemoryRouter initialEntries={['/tasks']}>
        <AssistantSlot />
        <Toaster />
      </MemoryRouter>
    </RelayEnvironmentProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Open AI assistant' }));
}

/** Opens the panel expanded and gives its message box. */
function openChat() {
  open();
  fireEvent.click(screen.getByRole('button', { name: 'Expand assistant' }));
  return screen.getByLabelText('Message') as HTMLTextAreaElement;
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
    const box = openChat();

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
    // It listens for its own reply stream before sending.
    expect(chat.streams.map((st) => st.streamId)).toEqual([chat.calls[0]?.body.streamId]);
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

  it('quick actions send a request without made-up titles, dates or search words, so the assistant asks for them', () => {
    expect(QUICK_ACTIONS.map((action) => [action.label, action.prompt])).toEqual([
      ['Search Files', 'Search my files'],
      ['Create Task', 'Create a task'],
      ['Schedule Event', 'Schedule an event'],
      ['Upload & Tag', 'How do I upload and tag my photos?'],
    ]);
  });

  it('a quick action expands and sends its prompt; a failure says so', async () => {
    const chat = stubChat();
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Create Task' }));
    expect(chat.calls[0]?.body.message).toBe('Create a task');
    await act(async () => chat.reply('The AI service is unavailable', 503));
    expect(await screen.findByText('Failed to process your message. Please try again.')).toBeTruthy();
  });

  it('shows the reply as it streams, before the answer, then keeps the answer', async () => {
    const chat = stubChat();
    const box = openChat();
    fireEvent.change(box, { target: { value: 'Tell me about the warehouse' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const log = screen.getByRole('log', { name: 'Conversation' });
    // Nothing yet: the spinner says the assistant is replying.
    expect(screen.getByText('The assistant is replying')).toBeTruthy();

    const [stream] = chat.streams;
    await act(async () => stream?.push({ delta: 'The warehouse ' }));
    await act(async () => stream?.push({ delta: 'has a loading bay' }));
    const bubble = await screen.findByText('The warehouse has a loading bay');
    expect(bubble.getAttribute('data-role')).toBe('assistant');
    expect(screen.queryByText('The assistant is replying')).toBeNull();
    // Still being written: the log holds its announcement until the reply is whole.
    expect(log.getAttribute('aria-busy')).toBe('true');
    expect(box.disabled).toBe(true);

    await act(async () => chat.reply('The warehouse has a loading bay and high ceilings.'));
    expect(await screen.findByText('The warehouse has a loading bay and high ceilings.')).toBeTruthy();
    expect(screen.queryByText('The warehouse has a loading bay')).toBeNull();
    expect(log.getAttribute('aria-busy')).toBe('false');
    expect(box.disabled).toBe(false);
  });

  it('drops a partial reply when the stream reports a failure, and gives the draft back', async () => {
    const chat = stubChat();
    const box = openChat();
    fireEvent.change(box, { target: { value: 'Find rooftops' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const [stream] = chat.streams;
    await act(async () => stream?.push({ delta: 'Looking for ' }));
    expect(await screen.findByText('Looking for')).toBeTruthy();
    await act(async () => stream?.push({ done: true, error: 'Failed to process your message. Please try again.' }));
    expect(await screen.findByText('Failed to process your message. Please try again.')).toBeTruthy();
    expect(screen.queryByText('Looking for')).toBeNull();
    await act(async () => chat.reply('Failed to process your message. Please try again.', 502));
    expect(box.value).toBe('Find rooftops');
    // One toast, not one for the stream and another for the answer.
    expect(screen.getAllByText('Failed to process your message. Please try again.')).toHaveLength(1);
  });
});

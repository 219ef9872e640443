import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { commitLocalUpdate, graphql, requestSubscription, useRelayEnvironment } from 'react-relay/hooks';
import type { Disposable } from 'relay-runtime';
import { useLocation } from 'react-router-dom';
import { dataRequest } from '../lib/http.ts';
import { isUnauthorizedError } from '../lib/unauthorized.ts';
import {
  CalendarIcon,
  ChevronDownIcon,
  ChevronUpIcon,
  MinusIcon,
  SearchIcon,
  SendIcon,
  SparkleIcon,
  TasksIcon,
  TagIcon,
} from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { toast } from '../ui/toast.tsx';
import type { AssistantSlotReplySubscription } from './__generated__/AssistantSlotReplySubscription.graphql';
import { CHAT_MESSAGE_LIMIT, type ChatResult } from '../../../api/src/assistant/contract.ts';
import { refusalMessage } from '../lib/refusal.ts';

// The floating AI assistant: minimized to a round button, or open, either
// collapsed (quick actions) or expanded (the chat). It talks to the REST paths of section 7; the
// reply shows as it is written through the assistantReply subscription, and the chat's answer,
// when it comes, is the reply that stays.

type Mode = 'minimized' | 'collapsed' | 'expanded';

interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Sent, nothing of the reply has arrived yet. */
  pending?: boolean;
  /** Part of the reply has arrived; more is coming. */
  streaming?: boolean;
}

// The prompts name the action only: the assistant asks for the title, day or search words, so
// that a click never files a task nobody asked for.
export const QUICK_ACTIONS = [
  { label: 'Search Files', icon: SearchIcon, prompt: 'Search my files' },
  { label: 'Create Task', icon: TasksIcon, prompt: 'Create a task' },
  { label: 'Schedule Event', icon: CalendarIcon, prompt: 'Schedule an event' },
  { label: 'Upload & Tag', icon: TagIcon, prompt: 'How do I upload and tag my photos?' },
] as const;

const CHAT_FAILED = 'Failed to process your message. Please try again.';

const replySubscription = graphql`
  subscription AssistantSlotReplySubscription($streamId: String!) {
    assistantReply(streamId: $streamId) {
      delta
      done
      error
    }
  }
`;

/** Names one message's reply stream, so the panel hears only its own pieces. */
function newStreamId() {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** An icon button in the panel's indigo header. */
function HeaderButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded p-1 hover:bg-indigo-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
    >
      {children}
    </button>
  );
}

export function AssistantSlot() {
  const [mode, setMode] = useState<Mode>('minimized');
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(false);
  const { pathname } = useLocation();
  const listRef = useRef<HTMLDivElement>(null);
  const environment = useRelayEnvironment();
  const replyStream = useRef<Disposable | null>(null);

  // A reply still streaming when the panel goes away stops being listened to.
  useEffect(() => () => replyStream.current?.dispose(), []);

  // Keep the newest message in view.
  useEffect(() => {
    const list = listRef.current;
    if (list && messages.length > 0) list.scrollTop = list.scrollHeight;
  }, [messages]);

  async function send(text: string) {
    const message = text.trim();
    if (!message || pending) return;
    setMode('expanded');
    setPending(true);
    setDraft('');
    const localId = `local-${Date.now()}`;
    const replyId = `${localId}-reply`;
    setMessages((list) => [
      ...list,
      { id: localId, role: 'user', content: message },
      { id: replyId, role: 'assistant', content: '', pending: true },
    ]);
    const updateReply = (change: Partial<ChatMessage>) =>
      setMessages((list) => list.map((m) => (m.id === replyId ? { ...m, ...change } : m)));

    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      setMessages((list) => list.filter((m) => m.id !== replyId));
      setDraft(message);
    };

    // Listen before sending, so the first pieces are not missed. Pieces that are missed anyway
    // (a dropped connection) cost nothing: the chat's answer carries the whole reply.
    const streamId = newStreamId();
    let streamed = '';
    replyStream.current?.dispose();
    replyStream.current = requestSubscription<AssistantSlotReplySubscription>(environment, {
      subscription: replySubscription,
      variables: { streamId },
      onNext: (payload) => {
        const piece = payload?.assistantReply;
        if (!piece || failed) return;
        if (piece.error) {
          fail();
          toast({ title: 'Error', description: CHAT_FAILED, variant: 'destructive' });
          return;
        }
        if (!piece.delta) return;
        streamed += piece.delta;
        updateReply({ content: streamed, pending: false, streaming: true });
      },
    });
    try {
      const reply = await dataRequest<ChatResult>('POST', '/api/ai/chat', {
        message,
        conversationId,
        streamId,
        context: { currentPage: pathname, userRole: 'user', timezoneOffset: new Date().getTimezoneOffset() },
      });
      setConversationId(reply.conversation.id);
      // The assistant changed data (a task, a gallery…): screens read it afresh from the server.
      if (reply.action) commitLocalUpdate(environment, (store) => store.invalidateStore());
      setMessages((list) =>
        list.map((m) =>
          m.id === localId
            ? { ...m, id: reply.userMessageId }
            : m.id === replyId
              ? { id: reply.messageId, role: 'assistant', content: reply.message }
              : m,
        ),
      );
    } catch (error) {
      const toasted = failed;
      fail();
      if (!toasted && !isUnauthorizedError(error)) {
        // The server's reason when it gave one ("Message is too long (4000 characters at most).").
        toast({ title: 'Error', description: refusalMessage(error) ?? CHAT_FAILED, variant: 'destructive' });
      }
    } finally {
      replyStream.current?.dispose();
      replyStream.current = null;
      setPending(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void send(draft);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter makes a new line; typing with an input method is left alone.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send(draft);
    }
  }

  // Near the limit the box says how much is left; it stops at the limit the server keeps.
  const counter = draft.length >= CHAT_MESSAGE_LIMIT * 0.9 ? `${draft.length}/${CHAT_MESSAGE_LIMIT}` : null;

  if (mode === 'minimized') {
    return (
      <button
        type="button"
        onClick={() => setMode('collapsed')}
        aria-label="Open AI assistant"
        className="fixed right-4 bottom-20 z-40 flex h-14 w-14 items-center justify-center rounded-full bg-indigo-600 text-white shadow-lg hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 md:bottom-6"
      >
        <SparkleIcon className="h-6 w-6" />
      </button>
    );
  }

  const expanded = mode === 'expanded';
  return (
    <section
      aria-label="AI assistant"
      className={`fixed right-2 bottom-20 z-40 flex w-[calc(100vw-1rem)] max-w-sm flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl md:right-6 md:bottom-6 dark:border-slate-700 dark:bg-slate-900 ${
        expanded ? 'h-[min(32rem,calc(100vh-7rem))]' : ''
      }`}
    >
      <header className="flex items-center justify-between bg-indigo-600 px-4 py-3 text-white">
        <h2 className="flex items-center gap-2 text-sm font-semibold">
          <SparkleIcon className="h-4 w-4" /> AI Assistant
        </h2>
        <div className="flex items-center gap-1">
          <HeaderButton
            label={expanded ? 'Collapse assistant' : 'Expand assistant'}
            onClick={() => setMode(expanded ? 'collapsed' : 'expanded')}
          >
            {expanded ? <ChevronDownIcon className="h-4 w-4" /> : <ChevronUpIcon className="h-4 w-4" />}
          </HeaderButton>
          <HeaderButton label="Minimize assistant" onClick={() => setMode('minimized')}>
            <MinusIcon className="h-4 w-4" />
          </HeaderButton>
        </div>
      </header>

      {!expanded && (
        <div className="grid grid-cols-2 gap-2 p-4">
          {QUICK_ACTIONS.map((action) => (
            <button
              key={action.label}
              type="button"
              onClick={() => void send(action.prompt)}
              disabled={pending}
              className="flex flex-col items-center gap-2 rounded-lg border border-slate-200 p-3 text-xs font-medium text-slate-700 hover:border-indigo-300 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              <action.icon className="h-5 w-5 text-indigo-600 dark:text-indigo-400" />
              {action.label}
            </button>
          ))}
        </div>
      )}

      {expanded && (
        <>
          {/* A log announces new messages; while a reply streams it is busy, so the reply is read once, whole. */}
          <div
            ref={listRef}
            role="log"
            aria-label="Conversation"
            aria-live="polite"
            aria-busy={messages.some((m) => m.streaming)}
            className="flex-1 space-y-3 overflow-y-auto p-4"
          >
            {messages.length === 0 ? (
              <p className="pt-8 text-center text-sm text-slate-500 dark:text-slate-400">
                Start a conversation with the AI assistant
              </p>
            ) : (
              messages.map((m) => (
                <div key={m.id} className={`flex ${m.role === 'user' ? 'justify-end' : 'justify-start'}`}>
                  <div
                    data-role={m.role}
                    data-streaming={m.streaming ? 'true' : undefined}
                    className={`max-w-[85%] rounded-lg px-3 py-2 text-sm whitespace-pre-wrap ${
                      m.role === 'user'
                        ? 'bg-indigo-600 text-white'
                        : 'bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-slate-100'
                    }`}
                  >
                    {m.pending ? <Spinner className="h-4 w-4" label="The assistant is replying" /> : m.content}
                  </div>
                </div>
              ))
            )}
          </div>
          <form
            onSubmit={onSubmit}
            className="flex items-end gap-2 border-t border-slate-200 p-3 dark:border-slate-700"
          >
            <label htmlFor="assistant-message" className="sr-only">
              Message
            </label>
            <textarea
              id="assistant-message"
              rows={2}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
              disabled={pending}
              maxLength={CHAT_MESSAGE_LIMIT}
              aria-describedby={counter ? 'assistant-message-count' : undefined}
              placeholder="Ask me anything..."
              className="max-h-32 min-h-10 flex-1 resize-none rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
            />
            {counter && (
              <span
                id="assistant-message-count"
                className="self-center text-xs whitespace-nowrap text-slate-600 dark:text-slate-400"
              >
                {counter}
              </span>
            )}
            <button
              type="submit"
              disabled={pending || !draft.trim()}
              aria-label="Send message"
              className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-indigo-600 text-white hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:opacity-50"
            >
              <SendIcon className="h-4 w-4" />
            </button>
          </form>
        </>
      )}
    </section>
  );
}

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ViewerContext } from '../context.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { domainError, NotFoundError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { type ChatTurn, claudeReply } from './claude.ts';
import { type Awaiting, offlineReply } from './offline.ts';
import type { ToolRun } from './tools.ts';
import { isUuid } from '../shared/ids.ts';
import { CHAT_MESSAGE_LIMIT, type ChatResult, type ReplyAction } from './contract.ts';

export const CHAT_FAILED = 'Failed to process your message. Please try again.';

/** The AI service failed (rate limit, timeout, bad key, outage): nothing was saved. */
export class AssistantUnavailableError extends domainError(502, 'AI_UNAVAILABLE', CHAT_FAILED) {}

/** Messages of a conversation sent back to Claude as memory. */
const HISTORY_LIMIT = 20;
const MESSAGE_LIMIT = CHAT_MESSAGE_LIMIT;

export const chatInput = z.strictObject({
  message: z
    .string({ error: 'Message is required.' })
    .trim()
    .min(1, 'Message is required.')
    .max(MESSAGE_LIMIT, `Message is too long (${MESSAGE_LIMIT} characters at most).`),
  conversationId: z.string({ error: 'conversationId must be text.' }).nullish(),
  context: z
    .object(
      {
        currentPage: z.string({ error: 'context.currentPage must be text.' }).max(500).optional(),
        userRole: z.string({ error: 'context.userRole must be text.' }).max(50).optional(),
        timezoneOffset: z
          .number({ error: 'context.timezoneOffset must be minutes.' })
          .int()
          .min(-840)
          .max(840)
          .optional(),
      },
      { error: 'context must be an object.' },
    )
    .nullish(),
  /** Any text the client picks; the assistantReply deltas of this message carry it back. */
  streamId: z.string({ error: 'streamId must be text.' }).max(100).nullish(),
});

export type ChatInput = z.input<typeof chatInput>;

/** The action of a reply, as the spec's chat response names it. */
async function ownConversation(ctx: ViewerContext, id: string) {
  const conversation = isUuid(id)
    ? await ctx.db.aiConversation.findFirst({ where: { id, userId: ctx.viewer.id } })
    : null;
  if (!conversation) throw new NotFoundError('Conversation');
  return conversation;
}

function publishDelta(
  ctx: ViewerContext,
  conversationId: string,
  streamId: string | null,
  delta: string,
  done = false,
  error: string | null = null,
) {
  ctx.events.publish('assistant:delta', ctx.viewer.id, { conversationId, streamId, delta, done, error });
}

/** Dates and BigInts as JSON can carry them (message metadata is JSON). */
function jsonSafe(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value ?? null, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
}

/** What the conversation's last reply asked the user for (the offline assistant keeps it there). */
async function lastQuestion(ctx: ViewerContext, conversationId: string): Promise<Awaiting | null> {
  const last = await ctx.db.aiMessage.findFirst({
    where: { conversationId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { role: true, metadata: true },
  });
  const metadata = last?.role === 'assistant' ? (last.metadata as { awaiting?: Awaiting | null } | null) : null;
  return metadata?.awaiting ?? null;
}

/**
 * Answers a message: Claude with tools when an API key is configured, the offline assistant
 * otherwise. The reply streams to the viewer's assistantReply subscription as it is written. The
 * user's message and the reply are saved together, in one transaction, only once the reply is
 * complete; a failure of the AI service saves nothing and reports CHAT_FAILED.
 */
export async function sendMessage(ctx: ViewerContext, input: ChatInput) {
  const data = parse(chatInput, input ?? {});
  const existing = data.conversationId ? await ownConversation(ctx, data.conversationId) : null;
  const conversationId = existing?.id ?? randomUUID();
  const streamId = data.streamId ?? null;
  const context = data.context ?? {};

  let reply: { text: string; runs: ToolRun[]; awaiting?: Awaiting };
  if (ctx.config.ai.anthropicApiKey) {
    const history: ChatTurn[] = existing
      ? (
          await ctx.db.aiMessage.findMany({
            where: { conversationId },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
            take: HISTORY_LIMIT,
            select: { role: true, content: true },
          })
        ).reverse()
      : [];
    // Claude needs turns that alternate and start with the user.
    while (history[0] && history[0].role !== 'user') history.shift();
    try {
      reply = await claudeReply(ctx, {
        history,
        message: data.message,
        context,
        onDelta: (delta) => publishDelta(ctx, conversationId, streamId, delta),
      });
    } catch (error) {
      ctx.logger?.error({ err: error, userId: ctx.viewer.id }, 'assistant: the AI service failed');
      publishDelta(ctx, conversationId, streamId, '', true, CHAT_FAILED);
      throw new AssistantUnavailableError();
    }
  } else {
    reply = await offlineReply(ctx, data.message, {
      timezoneOffset: context.timezoneOffset,
      awaiting: existing ? await lastQuestion(ctx, conversationId) : null,
    });
    publishDelta(ctx, conversationId, streamId, reply.text);
  }

  const last = reply.runs.at(-1);
  const action: ReplyAction | null = last ? { function: last.function, arguments: last.arguments } : null;
  const actions = reply.runs.map((r) => ({
    function: r.function,
    arguments: r.arguments,
    result: r.result,
    error: r.error,
  }));
  const saved = await ctx.db.$transaction(async (tx) => {
    const conversation = existing
      ? await tx.aiConversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() } })
      : await tx.aiConversation.create({
          data: { id: conversationId, userId: ctx.viewer.id, title: data.message.slice(0, 80) },
        });
    const userMessage = await tx.aiMessage.create({
      data: { conversationId, role: 'user', content: data.message, metadata: { context: jsonSafe(context) } },
    });
    const assistantMessage = await tx.aiMessage.create({
      data: {
        conversationId,
        role: 'assistant',
        content: reply.text,
        // Later than the user's message even on a coarse clock, so the order reads right.
        createdAt: new Date(userMessage.createdAt.getTime() + 1),
        metadata: jsonSafe({ action, actionResult: last?.result ?? null, actions, awaiting: reply.awaiting ?? null }),
      },
    });
    return { conversation, userMessage, assistantMessage };
  });
  publishDelta(ctx, conversationId, streamId, '', true);

  const result: ChatResult = {
    conversation: { id: saved.conversation.id, title: saved.conversation.title },
    message: reply.text,
    messageId: saved.assistantMessage.id,
    userMessageId: saved.userMessage.id,
    action,
    actionResult: jsonSafe(last?.result ?? null),
    actions: jsonSafe(actions) as ChatResult['actions'],
  };
  return result;
}

/** The viewer's conversations, most recently active first. */
export async function listConversations(ctx: ViewerContext) {
  return ctx.db.aiConversation.findMany({
    where: { userId: ctx.viewer.id },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    select: { id: true, title: true, createdAt: true, updatedAt: true },
    take: 200,
  });
}

/** The messages of one of the viewer's conversations, oldest first; 404 for anyone else's. */
export async function listMessages(ctx: ViewerContext, conversationId: string) {
  await ownConversation(ctx, conversationId);
  return ctx.db.aiMessage.findMany({
    where: { conversationId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, role: true, content: true, createdAt: true, metadata: true },
  });
}

export { ownConversation };

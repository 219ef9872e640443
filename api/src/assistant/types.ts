import { rawIdOf } from '../shared/ids.ts';
import { builder, ErrorInterface } from '../graphql/builder.ts';
import { listConnection } from '../graphql/shapes.ts';
import { rawId } from '../projects/types.ts';
import { TooManyRequestsError } from '../shared/errors.ts';
import { analyzeFile } from './analyze.ts';
import type { ChatResult } from './contract.ts';
import { sendMessage } from './rules.ts';

// The AI mutations spend the same per-user and per-address budget as REST /api/ai/*.
builder.objectType(TooManyRequestsError, {
  name: 'TooManyRequestsError',
  description: 'The AI budget is spent for now; try again after retryAfterSeconds.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    retryAfterSeconds: t.exposeInt('retryAfterSeconds'),
  }),
});

/** The conversation id of a Relay global id (or a raw id, as REST uses). */
function conversationIdOf(value: string | null | undefined): string | null {
  return value ? rawIdOf(value, 'AssistantConversation', 'conversationId') : null;
}

const metadataObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export const AssistantConversationType = builder.prismaNode('AiConversation', {
  name: 'AssistantConversation',
  description: 'A conversation between the signed-in user and the AI assistant.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, userId: ctx.viewer.id }),
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true, description: 'The start of its first message.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    messages: t.relatedConnection('messages', {
      cursor: 'id',
      totalCount: true,
      description: 'Oldest first.',
      query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    }),
  }),
});

const AssistantRole = builder.enumType('AssistantRole', {
  values: ['user', 'assistant'] as const,
  description: 'Who wrote a message.',
});

const AssistantAction = builder
  .objectRef<{ function: string; arguments: Record<string, unknown> }>('AssistantAction')
  .implement({
    description: 'Something the assistant did: the function it ran and with what.',
    fields: (t) => ({
      function: t.exposeString('function', {
        description: 'createTask, searchFiles, createGallery, listOverdueTasks or findPhotos.',
      }),
      arguments: t.field({ type: 'JSON', resolve: (a) => a.arguments }),
    }),
  });

builder.prismaNode('AiMessage', {
  name: 'AssistantMessage',
  description: 'One message of a conversation with the assistant.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, conversation: { userId: ctx.viewer.id } }),
  fields: (t) => ({
    role: t.field({ type: AssistantRole, select: { role: true }, resolve: (m) => m.role }),
    content: t.exposeString('content'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    action: t.field({
      type: AssistantAction,
      nullable: true,
      description: 'What the assistant did for this reply, if anything.',
      select: { metadata: true },
      resolve: (m) => {
        const action = metadataObject(metadataObject(m.metadata).action);
        return typeof action.function === 'string'
          ? { function: action.function, arguments: metadataObject(action.arguments) }
          : null;
      },
    }),
    actionResult: t.field({
      type: 'JSON',
      nullable: true,
      select: { metadata: true },
      resolve: (m) => metadataObject(m.metadata).actionResult ?? null,
    }),
  }),
});

builder.queryField('assistantConversations', (t) =>
  listConnection(t, 'AiConversation', {
    description: "The signed-in user's conversations with the assistant, most recently active first.",
    where: (_args, ctx) => ({ userId: ctx.viewer.id }),
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
  }),
);

const AssistantContextInput = builder.inputType('AssistantContextInput', {
  fields: (t) => ({
    currentPage: t.string({ required: false }),
    userRole: t.string({ required: false }),
    timezoneOffset: t.int({ required: false, description: 'Minutes, as Date.getTimezoneOffset() gives them.' }),
  }),
});

const SendAssistantMessagePayload = builder.objectRef<ChatResult>('SendAssistantMessagePayload').implement({
  description: 'The assistant’s answer to a message (both are saved in the conversation).',
  fields: (t) => ({
    conversation: t.prismaField({
      type: 'AiConversation',
      resolve: (query, result, _args, ctx) =>
        ctx.db.aiConversation.findUniqueOrThrow({ ...query, where: { id: result.conversation.id } }),
    }),
    reply: t.prismaField({
      type: 'AiMessage',
      resolve: (query, result, _args, ctx) =>
        ctx.db.aiMessage.findUniqueOrThrow({ ...query, where: { id: result.messageId } }),
    }),
    message: t.exposeString('message', { description: 'The reply text.' }),
    action: t.field({ type: AssistantAction, nullable: true, resolve: (r) => r.action }),
    actionResult: t.field({ type: 'JSON', nullable: true, resolve: (r) => r.actionResult ?? null }),
  }),
});

builder.mutationField('sendAssistantMessage', (t) =>
  t.field({
    type: SendAssistantMessagePayload,
    description:
      'Sends a message to the assistant. Its reply streams through the assistantReply subscription while it is written.',
    errors: { types: [TooManyRequestsError] },
    args: {
      message: t.arg.string({ required: true }),
      conversationId: t.arg.id({ required: false, description: 'Continue this conversation; a new one otherwise.' }),
      context: t.arg({ type: AssistantContextInput, required: false }),
      streamId: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      await ctx.spendAiBudget();
      return sendMessage(ctx, {
        message: args.message,
        conversationId: conversationIdOf(args.conversationId ? String(args.conversationId) : null),
        context: args.context
          ? {
              ...(args.context.currentPage != null && { currentPage: args.context.currentPage }),
              ...(args.context.userRole != null && { userRole: args.context.userRole }),
              ...(args.context.timezoneOffset != null && { timezoneOffset: args.context.timezoneOffset }),
            }
          : null,
        streamId: args.streamId ?? null,
      });
    },
  }),
);

builder.mutationField('analyzeFile', (t) =>
  t.prismaField({
    type: 'File',
    description:
      'AI image tags: analyses one of the signed-in user’s photos and saves the tags it finds (added to its own) and the analysis (metadata.aiAnalysis), as POST /api/ai/analyze-file does.',
    errors: { types: [TooManyRequestsError] },
    args: { fileId: t.arg.id({ required: true, description: 'The File (global id or raw id).' }) },
    resolve: async (query, _root, args, ctx) => {
      const fileId = rawId(args.fileId, 'File', 'fileId');
      await ctx.spendAiBudget();
      const result = await analyzeFile({ store: ctx.store }, ctx, { fileId });
      return ctx.db.file.findUniqueOrThrow({ ...query, where: { id: result.fileId } });
    },
  }),
);

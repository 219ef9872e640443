import type { ViewerContext } from '../context.ts';
import { type ChatTurn, converse } from '../infra/ai/claude.ts';
import { runTool, type ToolRun, toolDefinitions } from './tools.ts';

// The assistant as Claude plays it (infra/ai/claude.ts talks to Claude): what it is told, and the
// tools it may use, run with the viewer's own permissions.

export type { ChatTurn };

export interface ClaudeInput {
  history: ChatTurn[];
  message: string;
  context: { currentPage?: string | undefined; userRole?: string | undefined };
  now?: Date;
  onDelta(text: string): void;
}

function systemPrompt(input: ClaudeInput) {
  const now = input.now ?? new Date();
  return [
    'You are the assistant of Scoutbase, a workspace for film, TV and campaign production teams',
    '(location scouting photos, galleries, files, tasks). Be brief and practical.',
    'Use the tools to act for the user; never claim to have done something a tool did not do.',
    'To schedule an event, create a task with a due date. To upload files, send the user to /files?upload=true.',
    'When a request lacks something an action needs (the title of a task, the day of an event, the words to search',
    'for), ask the user for it and wait for the answer; never fill it in with a made-up value.',
    `Now is ${now.toISOString()} (UTC).`,
    input.context.currentPage ? `The user is on the page ${input.context.currentPage}.` : '',
    input.context.userRole ? `The user's role: ${input.context.userRole}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * Claude's reply, streamed piece by piece through onDelta, running the tools it asks for with the
 * viewer's own permissions. Throws the SDK's errors (rate limit, timeout, bad key, 5xx) as they are.
 */
export async function claudeReply(ctx: ViewerContext, input: ClaudeInput): Promise<{ text: string; runs: ToolRun[] }> {
  const { parts, runs } = await converse(ctx.config.ai, {
    system: systemPrompt(input),
    history: input.history,
    message: input.message,
    onDelta: input.onDelta,
    tools: {
      definitions: toolDefinitions,
      run: (name, toolInput) => runTool(ctx, name, toolInput),
      result: (run) => ({ content: run.error ? { error: run.error } : run.result, isError: Boolean(run.error) }),
    },
  });
  const text = parts.join('\n\n') || runs.map((r) => r.summary).join('\n') || 'Done.';
  return { text, runs };
}

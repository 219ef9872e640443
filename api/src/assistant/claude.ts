import Anthropic from '@anthropic-ai/sdk';
import type { Config } from '../config.ts';
import type { ViewerContext } from '../context.ts';
import { runTool, type ToolRun, toolDefinitions } from './tools.ts';

/** Most tool rounds one message may take before the assistant must answer. */
const MAX_TOOL_ROUNDS = 5;
const MAX_TOKENS = 1024;

const clients = new WeakMap<Config['ai'], Anthropic>();

/** One SDK client per configuration (it keeps its connections). */
export function anthropicFor(ai: Config['ai']): Anthropic {
  let client = clients.get(ai);
  if (!client) {
    client = new Anthropic({
      apiKey: ai.anthropicApiKey,
      baseURL: ai.anthropicBaseUrl,
      timeout: ai.timeoutMs,
      maxRetries: 2,
    });
    clients.set(ai, client);
  }
  return client;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

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
  const client = anthropicFor(ctx.config.ai);
  const messages: Anthropic.MessageParam[] = [
    ...input.history.map((turn) => ({ role: turn.role, content: turn.content })),
    { role: 'user', content: input.message },
  ];
  const runs: ToolRun[] = [];
  const parts: string[] = [];
  for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
    let roundText = '';
    const stream = client.messages.stream({
      model: ctx.config.ai.model,
      max_tokens: MAX_TOKENS,
      system: systemPrompt(input),
      messages,
      // The last round has no tools: the assistant must answer with what it has.
      ...(round < MAX_TOOL_ROUNDS && { tools: toolDefinitions }),
    });
    stream.on('text', (delta) => {
      if (roundText === '' && parts.length > 0) input.onDelta('\n\n');
      roundText += delta;
      input.onDelta(delta);
    });
    const final = await stream.finalMessage();
    if (roundText.trim()) parts.push(roundText.trim());
    const toolUses = final.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (final.stop_reason !== 'tool_use' || toolUses.length === 0) break;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of toolUses) {
      const run = await runTool(ctx, use.name, use.input);
      runs.push(run);
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        content: JSON.stringify(run.error ? { error: run.error } : run.result),
        ...(run.error && { is_error: true }),
      });
    }
    messages.push({ role: 'assistant', content: final.content });
    messages.push({ role: 'user', content: results });
  }
  const text = parts.join('\n\n') || runs.map((r) => r.summary).join('\n') || 'Done.';
  return { text, runs };
}

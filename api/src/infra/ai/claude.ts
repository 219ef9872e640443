import Anthropic from '@anthropic-ai/sdk';
import type { Config } from '../../config.ts';

// Claude through the Anthropic SDK (used when ANTHROPIC_API_KEY is set): the client, and a
// conversation that streams its text and runs the tools Claude asks for. What the assistant says
// and which tools it has are the assistant domain's (assistant/claude.ts).

/** Most tool rounds one message may take before Claude must answer. */
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

/** The tools Claude may ask for, how to run one, and what its run tells Claude back. */
export interface ClaudeTools<Run> {
  definitions: Anthropic.Tool[];
  run(name: string, input: unknown): Promise<Run>;
  result(run: Run): { content: unknown; isError: boolean };
}

/**
 * One reply of Claude's, streamed piece by piece through onDelta, with the tools it asks for run in
 * between. Throws the SDK's errors (rate limit, timeout, bad key, 5xx) as they are.
 */
export async function converse<Run>(
  ai: Config['ai'],
  request: {
    system: string;
    history: ChatTurn[];
    message: string;
    tools: ClaudeTools<Run>;
    onDelta(text: string): void;
  },
): Promise<{ parts: string[]; runs: Run[] }> {
  const client = anthropicFor(ai);
  const messages: Anthropic.MessageParam[] = [
    ...request.history.map((turn) => ({ role: turn.role, content: turn.content })),
    { role: 'user', content: request.message },
  ];
  const runs: Run[] = [];
  const parts: string[] = [];
  for (let round = 0; round <= MAX_TOOL_ROUNDS; round++) {
    let roundText = '';
    const stream = client.messages.stream({
      model: ai.model,
      max_tokens: MAX_TOKENS,
      system: request.system,
      messages,
      // The last round has no tools: Claude must answer with what it has.
      ...(round < MAX_TOOL_ROUNDS && { tools: request.tools.definitions }),
    });
    stream.on('text', (delta) => {
      if (roundText === '' && parts.length > 0) request.onDelta('\n\n');
      roundText += delta;
      request.onDelta(delta);
    });
    const final = await stream.finalMessage();
    if (roundText.trim()) parts.push(roundText.trim());
    const toolUses = final.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    if (final.stop_reason !== 'tool_use' || toolUses.length === 0) break;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const use of toolUses) {
      const run = await request.tools.run(use.name, use.input);
      runs.push(run);
      const { content, isError } = request.tools.result(run);
      results.push({
        type: 'tool_result',
        tool_use_id: use.id,
        content: JSON.stringify(content),
        ...(isError && { is_error: true }),
      });
    }
    messages.push({ role: 'assistant', content: final.content });
    messages.push({ role: 'user', content: results });
  }
  return { parts, runs };
}

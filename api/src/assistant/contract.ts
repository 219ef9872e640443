// What POST /api/ai/chat answers, as the API gives it and the web's assistant reads it
// (web/src/shell/AssistantSlot.tsx imports these types), so the two cannot drift apart. Nothing here
// imports anything that runs: the web's compiler reads this file.

/** The longest message the assistant takes (the chat box stops there too). */
export const CHAT_MESSAGE_LIMIT = 4000;

export interface ReplyAction {
  function: string;
  arguments: Record<string, unknown>;
}

export interface ChatResult {
  conversation: { id: string; title: string | null };
  /** The assistant's reply. */
  message: string;
  messageId: string;
  userMessageId: string;
  /** The last thing the assistant did (null when it only answered). */
  action: ReplyAction | null;
  actionResult: unknown;
  /** Every action, in order (Claude may take several for one message). */
  actions: { function: string; arguments: Record<string, unknown>; result: unknown; error: string | null }[];
}

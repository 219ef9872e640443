import * as chrono from 'chrono-node';
import type { ViewerContext } from '../context.ts';
import { runTool, type ToolRun } from './tools.ts';

/**
 * The assistant without a language model: it understands the four quick actions (search files,
 * create a task, schedule an event, upload & tag) plus overdue tasks, new galleries and photos by
 * tag or place, from plain sentences, really does them, and says plainly what it cannot do.
 */

/**
 * What the assistant asked for last, kept with its reply so that the next message of the
 * conversation can be the answer ("Create a task" → "What should the task be?" → "Book the crane").
 */
export type Awaiting = { kind: 'taskTitle' } | { kind: 'event'; title: string | null } | { kind: 'searchQuery' };

export interface OfflineReply {
  text: string;
  runs: ToolRun[];
  awaiting?: Awaiting;
}

export interface OfflineOptions {
  now?: Date;
  /** The user's offset from UTC in minutes as the browser reports it (getTimezoneOffset: UTC+1 is -60). */
  timezoneOffset?: number;
  /** What the assistant's previous reply in this conversation asked for, if anything. */
  awaiting?: Awaiting | null;
}

const CAPABILITIES = [
  '• Search files — "find files tagged exterior"',
  '• Create a task — "create a task to scout the warehouse tomorrow, high priority"',
  '• Schedule an event — "schedule a tech recce on Friday at 3pm"',
  '• Upload & tag — "upload photos"',
  '• Overdue tasks — "what is overdue?"',
  '• New gallery — "create a gallery called Rooftops"',
  '• Photos by tag or place — "show photos tagged night" / "photos from Brooklyn"',
].join('\n');

const OFFLINE_NOTE =
  'I am running without an AI model here, so I only understand these requests (other questions I cannot answer):';

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function tidy(text: string) {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;!?])/g, '$1')
    .replace(/^[\s,.;:!?-]+|[\s,.;:!?-]+$/g, '')
    .replace(/\b(with|and|due|by|on|at|for)$/i, '')
    .replace(/[\s,.;:!?-]+$/g, '')
    .trim();
}

interface When {
  date: Date;
  text: string;
}

/** The first date in the sentence; a day without a time means 09:00 in the user's time zone. */
function findDate(message: string, options: OfflineOptions): When | null {
  const offset = options.timezoneOffset ?? 0;
  const [found] = chrono.parse(
    message,
    { instant: options.now ?? new Date(), timezone: -offset },
    { forwardDate: true },
  );
  if (!found) return null;
  let date = found.start.date();
  if (!found.start.isCertain('hour')) {
    const y = found.start.get('year') ?? date.getUTCFullYear();
    const m = found.start.get('month') ?? date.getUTCMonth() + 1;
    const d = found.start.get('day') ?? date.getUTCDate();
    date = new Date(Date.UTC(y, m - 1, d, 9, 0) + offset * 60_000);
  }
  return { date, text: found.text };
}

function findPriority(message: string): { priority: 'low' | 'medium' | 'high'; text: string } | null {
  const match =
    message.match(/\b(high|medium|low|top|normal)[\s-]+priority\b/i) ??
    message.match(/\bpriority\s*(?:is|of|:|=)?\s*(high|medium|low)\b/i) ??
    message.match(/\b(urgent(?:ly)?|asap)\b/i);
  if (!match) return null;
  const word = match[1]?.toLowerCase() ?? '';
  const priority = word === 'low' ? 'low' : word === 'medium' || word === 'normal' ? 'medium' : 'high';
  return { priority, text: match[0] };
}

const TASK_LEAD =
  /^(?:please\s+)?(?:can you\s+|could you\s+)?(?:create|add|make|new|set up|open)\s+(?:me\s+)?(?:a\s+|an\s+)?(?:new\s+)?(?:task|to-?do)\b\s*(?:to|for|called|named|:|-)?\s*/i;
const REMIND_LEAD = /^(?:please\s+)?remind me to\s+/i;
const EVENT_LEAD =
  /^(?:please\s+)?(?:can you\s+|could you\s+)?(?:schedule|book|plan|arrange|set up|add)\s+(?:me\s+)?(?:a\s+|an\s+)?(?:new\s+)?(?:(?:event|meeting|appointment)\b\s*(?:for|to|called|named|:|-)?\s*)?/i;

/** The task a sentence describes: title, priority and due date, or null when no title is left. */
export function parseTask(message: string, lead: RegExp, options: OfflineOptions) {
  let rest = message.trim().replace(lead, '');
  const priority = findPriority(rest);
  if (priority) rest = rest.replace(priority.text, ' ');
  const due = findDate(rest, options);
  if (due) rest = rest.replace(due.text, ' ');
  rest = tidy(rest.replace(/\b(?:with|at|as)\s*$/i, ''));
  rest = tidy(rest.replace(/^["“']|["”']$/g, ''));
  if (!rest || /^(?:a\s+)?(?:new\s+)?(?:task|event|meeting)$/i.test(rest)) return null;
  return { title: capitalise(rest), priority: priority?.priority ?? 'medium', dueDate: due?.date ?? null };
}

function searchQuery(message: string) {
  const m =
    message.match(/\b(?:for|named|called|about|matching)\s+["“']?(.+?)["”']?\s*[.?!]*$/i) ??
    message.match(
      /\b(?:search|find|look up|look for|show(?: me)?|where (?:is|are))\s+(?:my\s+|the\s+|all\s+)?(?:files?\s+)?["“']?(.+?)["”']?\s*[.?!]*$/i,
    );
  const query = m?.[1]
    ?.replace(/^(?:my\s+|the\s+|all\s+)?(?:files?|documents?)\s*(?:for|named|called|about)?\s*/i, '')
    .replace(/^(?:tagged|with tag)\s+/i, '')
    .trim();
  return query && !/^(?:files?|documents?|something)$/i.test(query) ? query : null;
}

function photoQuery(message: string) {
  const tag = message.match(
    /\b(?:tagged|with (?:the )?tag|labell?ed)\s+["“']?([\w -]+?)["”']?(?:\s+(?:from|in|at|near)\b|[.?!]*$)/i,
  )?.[1];
  const place = message.match(/\b(?:from|in|at|near|of)\s+["“']?([\w ,'-]+?)["”']?\s*[.?!]*$/i)?.[1];
  return {
    tag: tag?.trim(),
    place: place && !/^(?:the\s+)?(?:files?|photos?|pictures?|images?)$/i.test(place) ? place.trim() : undefined,
  };
}

const askTaskTitle: OfflineReply = {
  text: 'What should the task be? For example: "scout the warehouse tomorrow, high priority".',
  runs: [],
  awaiting: { kind: 'taskTitle' },
};
const askEvent: OfflineReply = {
  text: 'What should I schedule, and when? For example: "tech recce at the warehouse on Friday at 3pm".',
  runs: [],
  awaiting: { kind: 'event', title: null },
};
const askSearchQuery: OfflineReply = {
  text: 'What should I search for? Give me a file name or tag (more than 2 characters), e.g. "exterior".',
  runs: [],
  awaiting: { kind: 'searchQuery' },
};

/** A message that is a request of its own, not the answer to the assistant's question. */
const NEW_REQUEST =
  /\?\s*$|^(?:please\s+)?(?:can you\s+|could you\s+)?(?:create|add|make|new|schedule|search|find|look for|show me|upload|what|how|where|list)\b/i;

const GALLERY_NAME = /\bgallery\s+(?:called|named|for|titled)?\s*["“']?(.+?)["”']?\s*[.?!]*$/i;

export async function offlineReply(
  ctx: ViewerContext,
  message: string,
  options: OfflineOptions = {},
): Promise<OfflineReply> {
  const text = message.trim();
  const lower = text.toLowerCase();
  const run = async (name: string, args: Record<string, unknown>) => {
    const result = await runTool(ctx, name, args);
    return { text: result.error ? `I couldn't do that: ${result.error}` : result.summary, runs: [result] };
  };
  const scheduleEvent = (task: ReturnType<typeof parseTask>): Promise<OfflineReply> | OfflineReply => {
    if (!task) return askEvent;
    if (!task.dueDate) {
      return {
        text: `When should "${task.title}" happen? Give me a day or time, e.g. "tomorrow at 10am".`,
        runs: [],
        awaiting: { kind: 'event', title: task.title },
      };
    }
    return run('createTask', { ...task, dueDate: task.dueDate.toISOString() });
  };

  // The answer to the question of the previous reply, unless it is a new request of its own.
  const awaiting = options.awaiting;
  if (awaiting && !NEW_REQUEST.test(text)) {
    if (awaiting.kind === 'searchQuery') {
      const query = searchQuery(text) ?? tidy(text.replace(/^["“']|["”']$/g, ''));
      return query.length > 2 ? run('searchFiles', { query }) : askSearchQuery;
    }
    if (awaiting.kind === 'taskTitle') {
      const task = parseTask(text, REMIND_LEAD, options);
      return task ? run('createTask', { ...task, dueDate: task.dueDate?.toISOString() ?? null }) : askTaskTitle;
    }
    const event = parseTask(text, EVENT_LEAD, options);
    if (awaiting.title && !event?.dueDate) {
      const when = findDate(text, options);
      if (when) return scheduleEvent({ title: awaiting.title, priority: 'medium', dueDate: when.date });
    }
    return scheduleEvent(
      event ?? (awaiting.title ? { title: awaiting.title, priority: 'medium', dueDate: null } : null),
    );
  }

  // Upload & Tag: the bytes come from the browser, so the assistant points to the upload panel.
  if (/\bupload/.test(lower)) {
    return {
      text:
        'To upload, open the File Manager upload panel: /files?upload=true — drop up to 10 files (50 MB each). ' +
        'Photos are tagged automatically after upload (orientation, colours, time of day, camera, place when the photo has GPS), ' +
        'and you can edit the tags afterwards.',
      runs: [],
    };
  }

  if (/\boverdue\b|\blate\b.*\btasks?\b|\bbehind\b/.test(lower)) return run('listOverdueTasks', {});

  if (REMIND_LEAD.test(text) || TASK_LEAD.test(text)) {
    const task = parseTask(text, REMIND_LEAD.test(text) ? REMIND_LEAD : TASK_LEAD, options);
    if (!task) return askTaskTitle;
    return run('createTask', { ...task, dueDate: task.dueDate?.toISOString() ?? null });
  }

  if (/\b(schedule|book|plan|arrange)\b|\b(event|meeting|appointment)\b/.test(lower) && !/\bgallery\b/.test(lower)) {
    return scheduleEvent(parseTask(text, EVENT_LEAD, options));
  }

  if (/\b(create|make|new|start|add)\b.*\bgallery\b/.test(lower)) {
    const name = text.match(GALLERY_NAME)?.[1]?.trim();
    if (!name)
      return { text: 'What should the gallery be called? For example: "create a gallery called Rooftops".', runs: [] };
    return run('createGallery', { name });
  }

  if (/\b(photos?|pictures?|images?|shots?)\b/.test(lower)) {
    const { tag, place } = photoQuery(text);
    if (tag || place) return run('findPhotos', { ...(tag && { tag }), ...(place && { place }) });
  }

  if (/\b(search|find|look up|look for|show me|where (?:is|are))\b/.test(lower)) {
    const query = searchQuery(text);
    if (!query) return askSearchQuery;
    return run('searchFiles', { query });
  }

  return { text: `${OFFLINE_NOTE}\n${CAPABILITIES}`, runs: [] };
}

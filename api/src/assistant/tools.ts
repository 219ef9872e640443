import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ViewerContext } from '../context.ts';
import { fileAccessWhere } from '../access/rules.ts';
import { createGallery } from '../galleries/rules.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { DomainError } from '../shared/errors.ts';
import { appLink } from '../shared/links.ts';
import { parse } from '../shared/validation.ts';
import { createTask, listTasks } from '../tasks/rules.ts';
import { searchFiles } from '../files/search.ts';

/**
 * What the assistant can do for someone. Every tool runs through the owning domain's rules with
 * the person's own ViewerContext, so it can do exactly what they could do themselves, never more.
 */

export type ToolName = 'createTask' | 'searchFiles' | 'createGallery' | 'listOverdueTasks' | 'findPhotos';

export interface ToolRun {
  function: string;
  arguments: Record<string, unknown>;
  /** What the tool returned (the created record, the list found), or null when it was refused. */
  result: unknown;
  /** The refusal, in the domain's words, when the tool could not run. */
  error: string | null;
  /** One line for the person (used by the offline assistant, and as a fallback reply). */
  summary: string;
}

export const toolDefinitions: Anthropic.Tool[] = [
  {
    name: 'createTask',
    description:
      'Create a task for the user (also used to schedule an event: a task with a due date). Priority is low, medium (default) or high. ' +
      'Never invent a title: when the user has not said what the task is, ask them first. For an event without a day, ask for the day instead of picking one.',
    input_schema: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Short title, e.g. "Scout the warehouse"' },
        description: { type: 'string' },
        priority: { type: 'string', enum: ['low', 'medium', 'high'] },
        dueDate: { type: 'string', description: 'ISO 8601 date and time, e.g. 2026-11-24T09:00:00Z' },
      },
      required: ['title'],
    },
  },
  {
    name: 'searchFiles',
    description:
      "Search the user's files by name or tag (more than 2 characters). Never guess the search words: when the user has not said what to look for, ask them.",
    input_schema: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    },
  },
  {
    name: 'createGallery',
    description: 'Create a photo gallery for the user.',
    input_schema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        description: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        location: { type: 'string' },
        projectName: { type: 'string' },
      },
      required: ['name'],
    },
  },
  {
    name: 'listOverdueTasks',
    description: 'List the pending tasks of the user that are past their due date.',
    input_schema: { type: 'object', properties: {} },
  },
  {
    name: 'findPhotos',
    description:
      'Find photos the user can see by tag (e.g. "night", "exterior") and/or by place (matches gallery locations, names and tags).',
    input_schema: {
      type: 'object',
      properties: { tag: { type: 'string' }, place: { type: 'string' } },
    },
  },
];

const PHOTO_LIMIT = 50;

function fileSummary(f: {
  id: string;
  name: string;
  mimeType: string;
  size: bigint;
  tags: string[];
  objectPath: string;
}) {
  return { id: f.id, name: f.name, mimeType: f.mimeType, size: Number(f.size), tags: f.tags, url: f.objectPath };
}

const findPhotosInput = z.strictObject({
  tag: z.string().trim().max(100, 'The tag is too long.').optional(),
  place: z.string().trim().max(200, 'The place is too long.').optional(),
});

/** Photos the viewer may see with a tag, or taken at / filed under a place. */
export async function findPhotos(ctx: ViewerContext, input: unknown) {
  const { tag, place } = parse(findPhotosInput, input ?? {});
  if (!tag && !place) throw new DomainError('Say which tag or place to look for.');
  const and: Prisma.FileWhereInput[] = [fileAccessWhere(ctx.viewer.id, 'read'), { mimeType: { startsWith: 'image/' } }];
  if (tag) and.push({ tags: { has: tag.toLowerCase() } });
  if (place) {
    const contains = { contains: place, mode: 'insensitive' } as const;
    and.push({
      OR: [
        { tags: { has: place.toLowerCase() } },
        { name: contains },
        { galleryItems: { some: { gallery: { OR: [{ location: contains }, { name: contains }] } } } },
        { metadata: { path: ['aiAnalysis', 'place'], string_contains: place } },
      ],
    });
  }
  const files = await ctx.db.file.findMany({ where: { AND: and }, orderBy: { createdAt: 'desc' }, take: PHOTO_LIMIT });
  return files.map(fileSummary);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function when(date: Date | null) {
  return date
    ? date.toLocaleString('en-GB', {
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'UTC',
      })
    : null;
}

async function execute(ctx: ViewerContext, name: ToolName, args: Record<string, unknown>) {
  switch (name) {
    case 'createTask': {
      const task = await createTask(ctx, {
        title: args.title as string,
        description: (args.description as string | undefined) ?? null,
        priority: (args.priority as 'low' | 'medium' | 'high' | undefined) ?? 'medium',
        dueDate: (args.dueDate as string | undefined) ?? null,
      });
      const due = when(task.dueDate);
      return {
        result: task,
        summary: `Created the task "${task.title}" (${task.priority} priority${due ? `, due ${due} UTC` : ''}).`,
      };
    }
    case 'searchFiles': {
      const files = (await searchFiles(ctx, args.query, { limit: 20 })).map(fileSummary);
      return {
        result: { query: args.query, files },
        summary: files.length
          ? `Found ${plural(files.length, 'file')} for "${String(args.query)}": ${files
              .slice(0, 5)
              .map((f) => f.name)
              .join(', ')}${files.length > 5 ? '…' : ''}.`
          : `No files found for "${String(args.query)}".`,
      };
    }
    case 'createGallery': {
      const gallery = await createGallery(ctx, {
        name: args.name,
        ...(args.description !== undefined && { description: args.description }),
        ...(args.tags !== undefined && { tags: args.tags }),
        ...(args.location !== undefined && { location: args.location }),
        ...(args.projectName !== undefined && { projectName: args.projectName }),
      });
      return {
        result: { id: gallery.id, name: gallery.name, url: appLink.gallery(gallery.id) },
        summary: `Created the gallery "${gallery.name}".`,
      };
    }
    case 'listOverdueTasks': {
      const tasks = await listTasks(ctx, { status: 'pending', overdue: true });
      return {
        result: tasks,
        summary: tasks.length
          ? `You have ${plural(tasks.length, 'overdue task')}: ${tasks
              .slice(0, 5)
              .map((t) => `"${t.title}"`)
              .join(', ')}${tasks.length > 5 ? '…' : ''}.`
          : 'You have no overdue tasks.',
      };
    }
    case 'findPhotos': {
      const photos = await findPhotos(ctx, args);
      const what = [args.tag && `tagged "${String(args.tag)}"`, args.place && `from "${String(args.place)}"`]
        .filter(Boolean)
        .join(' and ');
      return {
        result: { photos },
        summary: photos.length ? `Found ${plural(photos.length, 'photo')} ${what}.` : `No photos found ${what}.`,
      };
    }
  }
}

export function isToolName(name: string): name is ToolName {
  return toolDefinitions.some((t) => t.name === name);
}

/** Runs a tool for the viewer. A refusal by the rules (validation, not found) is reported, not thrown. */
export async function runTool(ctx: ViewerContext, name: string, input: unknown): Promise<ToolRun> {
  const args = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (!isToolName(name)) {
    return { function: name, arguments: args, result: null, error: `There is no tool called ${name}.`, summary: '' };
  }
  try {
    const { result, summary } = await execute(ctx, name, args);
    return { function: name, arguments: args, result, error: null, summary };
  } catch (error) {
    if (error instanceof DomainError) {
      return { function: name, arguments: args, result: null, error: error.message, summary: error.message };
    }
    throw error;
  }
}

import path from 'node:path';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import { z } from 'zod';
import type { ViewerContext } from '../context.ts';
import { updateFile } from '../files/files.ts';
import type { File } from '../generated/prisma/client.ts';
import { DomainError, domainError, NotFoundError } from '../shared/errors.ts';
import { parse } from '../shared/validation.ts';
import { variantKey } from '../storage/images.ts';
import { isProcessing, processUpload } from '../storage/processing.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { uploadIdFrom } from '../storage/uploads.ts';
import { anthropicFor } from '../infra/ai/claude.ts';
import { analysisMetadata } from './bytes-analysis.ts';
import { isUuid } from '../shared/ids.ts';

/**
 * AI image tags: Claude looks at the photo's preview thumbnail when an API key is configured;
 * otherwise the tags are honest facts read from the photo itself (orientation, dominant colours,
 * time of day, camera, place when it has GPS). Either way they are saved on the file through the
 * files domain's own update rule, as PATCH /api/files/{id} would save them.
 */

export const ANALYSIS_FAILED = 'Image analysis failed. The file was kept without new tags.';

export class AnalysisFailedError extends domainError(502, 'AI_ANALYSIS_FAILED', ANALYSIS_FAILED) {}

export class NotAnalysableError extends domainError(422, 'NOT_ANALYSABLE') {}

export interface AnalysisDeps {
  store: ObjectStore;
}

export const analyzeInput = z.object({
  fileId: z.string({ error: 'fileId is required.' }).trim().min(1, 'fileId is required.'),
  // The spec's client sends the file's URL too; the bytes are always read from our own store, never fetched.
  fileUrl: z.string({ error: 'fileUrl must be text.' }).nullish(),
});

export interface ImageAnalysis {
  source: 'claude' | 'photo';
  tags: string[];
  description: string;
  analyzedAt: string;
  model?: string;
  orientation?: 'landscape' | 'portrait' | 'square';
  colors?: string[];
  timeOfDay?: string;
  camera?: string;
  place?: string;
}

interface ImageFacts {
  width?: number;
  height?: number;
  takenAt?: string;
  camera?: string;
  gps?: { latitude: number; longitude: number };
}

const PREVIEW_MAX_BYTES = 5 * 1024 * 1024;
const TAG_LIMIT = 12;

async function toBuffer(stream: Readable) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > 60 * 1024 * 1024) throw new NotAnalysableError('The photo is too large to analyse.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The preview thumbnail storage made for the photo, or one made now from the original. */
async function previewOf(deps: AnalysisDeps, ctx: ViewerContext, file: File): Promise<Buffer> {
  const uploadId = uploadIdFrom(file.objectPath);
  const upload = uploadId ? await ctx.db.upload.findUnique({ where: { id: uploadId } }) : null;
  if (!upload) throw new NotAnalysableError('The photo’s bytes are not available to analyse.');
  const preview = await deps.store.get(variantKey(upload.objectKey, 'preview')).catch(() => null);
  if (preview) return toBuffer(preview);
  const original = await deps.store.get(upload.objectKey).catch(() => null);
  if (!original) throw new NotAnalysableError('The photo’s bytes are not available to analyse.');
  try {
    return await sharp(await toBuffer(original), { limitInputPixels: 200_000_000 })
      .rotate()
      .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw new NotAnalysableError('This image could not be read.');
  }
}

// ───────────── offline: facts from the photo ─────────────

const PALETTE: [string, number, number, number][] = [
  ['black', 20, 20, 20],
  ['gray', 128, 128, 128],
  ['white', 240, 240, 240],
  ['red', 200, 30, 30],
  ['orange', 235, 130, 30],
  ['yellow', 230, 210, 50],
  ['green', 50, 150, 60],
  ['teal', 30, 140, 140],
  ['blue', 40, 80, 200],
  ['purple', 120, 60, 170],
  ['pink', 230, 130, 170],
  ['brown', 120, 80, 45],
  ['beige', 215, 195, 160],
];

function colourName(r: number, g: number, b: number) {
  let best = 'gray';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const [name, pr, pg, pb] of PALETTE) {
    // Weighted distance: the eye is most sensitive to green, least to blue.
    const d = 2 * (r - pr) ** 2 + 4 * (g - pg) ** 2 + 3 * (b - pb) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = name;
    }
  }
  return best;
}

/** The colours covering at least a fifth of the picture, most first (at most three). */
async function dominantColours(preview: Buffer) {
  const { data, info } = await sharp(preview)
    .resize(48, 48, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const counts = new Map<string, number>();
  const pixels = info.width * info.height;
  for (let i = 0; i < data.length; i += info.channels) {
    const name = colourName(data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const main = ranked.filter(([, n]) => n / pixels >= 0.2).map(([name]) => name);
  return (main.length ? main : ranked.slice(0, 1).map(([name]) => name)).slice(0, 3);
}

function timeOfDay(takenAt: string | undefined) {
  // takenAt is the camera's wall clock (YYYY-MM-DDTHH:mm:ss[offset]): its hour is the local hour.
  const hour = takenAt?.match(/T(\d{2}):/)?.[1];
  if (hour === undefined) return undefined;
  const h = Number(hour);
  if (h >= 5 && h < 12) return 'morning';
  if (h >= 12 && h < 17) return 'afternoon';
  if (h >= 17 && h < 21) return 'evening';
  return 'night';
}

function photoFacts(file: File): ImageFacts {
  const metadata = (file.metadata ?? {}) as { image?: ImageFacts };
  return metadata.image && typeof metadata.image === 'object' ? metadata.image : {};
}

async function analyseOffline(file: File, preview: Buffer): Promise<ImageAnalysis> {
  const facts = photoFacts(file);
  let { width, height } = facts;
  if (!width || !height) {
    const meta = await sharp(preview).metadata();
    width = meta.width;
    height = meta.height;
  }
  const orientation =
    width && height ? (width > height * 1.05 ? 'landscape' : height > width * 1.05 ? 'portrait' : 'square') : undefined;
  const colors = await dominantColours(preview);
  const when = timeOfDay(facts.takenAt);
  const camera = facts.camera?.trim() || undefined;
  const place = facts.gps ? `${facts.gps.latitude.toFixed(5)}, ${facts.gps.longitude.toFixed(5)}` : undefined;
  const tags = [
    ...(orientation ? [orientation] : []),
    ...colors,
    ...(when ? [when] : []),
    ...(camera ? [camera.toLowerCase()] : []),
    ...(place ? ['geotagged'] : []),
  ];
  const description = [
    `${orientation ? `${orientation[0]?.toUpperCase()}${orientation.slice(1)} photo` : 'Photo'}, mostly ${colors.join(' and ')}`,
    when ? `, taken in the ${when}` : '',
    camera ? ` with a ${camera}` : '',
    place ? ` at ${place}` : '',
    '.',
  ].join('');
  return {
    source: 'photo',
    tags,
    description,
    analyzedAt: new Date().toISOString(),
    ...(orientation && { orientation }),
    colors,
    ...(when && { timeOfDay: when }),
    ...(camera && { camera }),
    ...(place && { place }),
  };
}

// ───────────── with Claude ─────────────

const claudeAnswer = z.object({
  tags: z.array(z.string()).min(1),
  description: z.string().min(1),
});

async function analyseWithClaude(ctx: ViewerContext, file: File, preview: Buffer): Promise<ImageAnalysis> {
  const image =
    preview.length > PREVIEW_MAX_BYTES
      ? await sharp(preview).resize(1024, 1024, { fit: 'inside' }).webp().toBuffer()
      : preview;
  const message = await anthropicFor(ctx.config.ai).messages.create({
    model: ctx.config.ai.model,
    max_tokens: 400,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: image.toString('base64') } },
          {
            type: 'text',
            text:
              'This photo was uploaded to a location-scouting library for film and TV production. ' +
              `Its file name is ${JSON.stringify(file.name)}. Answer with JSON only, no prose: ` +
              '{"tags": [up to 10 short lowercase tags a scout would search for: kind of place, style, era, ' +
              'interior/exterior, light, notable features], "description": "one sentence describing the location"}',
          },
        ],
      },
    ],
  });
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const json = text.match(/\{[\s\S]*\}/)?.[0];
  let parsed: z.infer<typeof claudeAnswer>;
  try {
    parsed = claudeAnswer.parse(JSON.parse(json ?? ''));
  } catch {
    throw new Error(`Claude's analysis was not the JSON asked for: ${text.slice(0, 200)}`);
  }
  return {
    source: 'claude',
    model: ctx.config.ai.model,
    tags: parsed.tags,
    description: parsed.description.trim().slice(0, 500),
    analyzedAt: new Date().toISOString(),
  };
}

function cleanTags(tags: string[]) {
  return [...new Set(tags.map((t) => t.trim().toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ')).filter(Boolean))]
    .filter((t) => t.length <= 100)
    .slice(0, TAG_LIMIT);
}

const quiet = { info() {}, warn() {}, error() {} };

/**
 * The file once its upload's processing is done: the analysis reads the EXIF facts and the
 * preview that processing makes. Asked right after an upload, it does that work now rather than
 * wait for the queue (the job, running too, finds it done or repeats it harmlessly).
 */
async function processedFile(deps: AnalysisDeps, ctx: ViewerContext, file: File): Promise<File> {
  const uploadId = uploadIdFrom(file.objectPath);
  if (!uploadId || !isProcessing(file.metadata)) return file;
  await processUpload(
    {
      db: ctx.db,
      events: ctx.events,
      jobs: ctx.jobs,
      store: deps.store,
      scratchDir: path.join(ctx.config.dataDir, 'tmp', 'processing'),
      logger: ctx.logger ?? quiet,
    },
    uploadId,
  );
  return (await ctx.db.file.findUnique({ where: { id: file.id } })) ?? file;
}

/** Whether the photo has its AI analysis already. */
export function isAutoTagged(metadata: unknown) {
  const facts = (metadata ?? {}) as { autoTagged?: unknown; aiAnalysis?: unknown };
  return facts.autoTagged === true && typeof facts.aiAnalysis === 'object' && facts.aiAnalysis !== null;
}

/**
 * Analyses one of the viewer's own photos and saves the tags (added to the file's own), the
 * analysis (metadata.aiAnalysis) and metadata.autoTagged. Someone else's file is a 404. A failure
 * of the analysis is logged and reported as AnalysisFailedError; the file stays as it was. A photo
 * analysed before answers that analysis again.
 */
export async function analyzeFile(deps: AnalysisDeps, ctx: ViewerContext, input: unknown) {
  const { fileId } = parse(analyzeInput, input ?? {});
  const found = isUuid(fileId) ? await ctx.db.file.findFirst({ where: { id: fileId, ownerId: ctx.viewer.id } }) : null;
  if (!found) throw new NotFoundError('File');
  if (!found.mimeType.startsWith('image/')) throw new NotAnalysableError('Only images can be analysed.');
  if (isAutoTagged(found.metadata)) {
    // Tagged already (by the upload panel or the tagging job): the same answer, no second bill,
    // and the tags are not added twice.
    return answer(found, (found.metadata as unknown as { aiAnalysis: ImageAnalysis }).aiAnalysis);
  }
  const file = await processedFile(deps, ctx, found);

  // The upload's progress stream tells the browser the photo is being analysed (the spec's 90 %).
  const uploadId = uploadIdFrom(file.objectPath);
  const progress = (status: 'analyzing' | 'analyzed' | 'analysis_failed') => {
    if (!uploadId) return;
    const size = Number(file.size);
    ctx.events.publish('upload:progress', ctx.viewer.id, { uploadId, received: size, total: size, status });
  };
  progress('analyzing');
  let analysis: ImageAnalysis;
  try {
    const preview = await previewOf(deps, ctx, file);
    analysis = ctx.config.ai.anthropicApiKey
      ? await analyseWithClaude(ctx, file, preview)
      : await analyseOffline(file, preview);
  } catch (error) {
    ctx.logger?.error({ err: error, fileId: file.id, userId: ctx.viewer.id }, 'image analysis failed');
    progress('analysis_failed');
    if (error instanceof DomainError) throw error;
    throw new AnalysisFailedError();
  }
  analysis.tags = cleanTags(analysis.tags);

  const updated = await updateFile(ctx, file.id, {
    tags: [...file.tags, ...analysis.tags],
    metadata: { aiAnalysis: analysis, autoTagged: true },
  });
  // Kept with the bytes too, so a restore of this version brings it back (bytes-analysis.ts).
  if (uploadId) {
    await ctx.db.$executeRaw`
      UPDATE "Upload" SET metadata = metadata || ${JSON.stringify(analysisMetadata(analysis))}::jsonb
      WHERE id = ${uploadId}::uuid`;
  }
  progress('analyzed');
  return answer(updated, analysis);
}

function answer(file: Pick<File, 'id' | 'tags' | 'metadata'>, analysis: ImageAnalysis) {
  return {
    fileId: file.id,
    tags: analysis.tags,
    description: analysis.description,
    analysis,
    file: { id: file.id, tags: file.tags, metadata: file.metadata },
  };
}

/**
 * An analysis (AI tags and description) describes one set of bytes, so it is kept with them: in
 * the Upload row's metadata next to what storage read from those bytes (EXIF, dimensions), as well
 * as on the file while those bytes are current. When other bytes become a file's current ones (a
 * new version, a restore), the file's analysis and the tags it added go, and the analysis of the
 * incoming bytes, when they have one, comes back; tags the person typed stay. (A tag both typed
 * and suggested by the analysis cannot be told apart from the suggestion and goes with it.)
 */

const ANALYSIS = 'aiAnalysis';
const AUTO_TAGGED = 'autoTagged';

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The analysis kept in some metadata, when it is a whole one. */
export function analysisIn(metadata: unknown): { tags: string[]; description?: unknown } | null {
  const analysis = record(metadata)[ANALYSIS];
  const tags = record(analysis).tags;
  return Array.isArray(tags) ? { ...record(analysis), tags: tags.filter((t) => typeof t === 'string') } : null;
}

/** `tags` without those the file's analysis (in `metadata`) added: the ones the person typed. */
export function withoutAnalysisTags(tags: string[], metadata: unknown) {
  const stale = new Set(analysisIn(metadata)?.tags ?? []);
  return tags.filter((tag) => !stale.has(tag));
}

/** The metadata to keep with the bytes once they are analysed. */
export function analysisMetadata(analysis: object) {
  return { [ANALYSIS]: analysis };
}

/**
 * The file's tags and metadata once bytes whose own metadata is `bytesMetadata` become current.
 * `needsAnalysis` says those bytes were never analysed (the tagging job should look at them).
 */
export function withAnalysisOfBytes(
  file: { tags: string[]; metadata: Record<string, unknown> },
  bytesMetadata: Record<string, unknown>,
) {
  const typed = withoutAnalysisTags(file.tags, file.metadata);
  const metadata: Record<string, unknown> = { ...file.metadata, ...bytesMetadata };
  delete metadata[ANALYSIS];
  delete metadata[AUTO_TAGGED];
  const restored = analysisIn(bytesMetadata);
  if (!restored) return { tags: typed, metadata, needsAnalysis: true };
  return {
    tags: [...new Set([...typed, ...restored.tags])],
    metadata: { ...metadata, [ANALYSIS]: bytesMetadata[ANALYSIS], [AUTO_TAGGED]: true },
    needsAnalysis: false,
  };
}

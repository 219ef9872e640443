import { z } from 'zod';
import { Prisma } from '../generated/prisma/client.ts';
import type { File } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { galleryFilesSql, readableFileSql, seesFolderOf } from '../access/rules.ts';
import { parse } from '../shared/validation.ts';
import { FOLDER_ORDER } from './folders.ts';

// Search over the files a person may read: names, original names and tags, best match first.

export const searchQueryInput = z
  .string({ error: 'Search query must be longer than 2 characters.' })
  .trim()
  .min(3, 'Search query must be longer than 2 characters.')
  .max(200, 'Search query is too long (200 characters at most).');

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Ids of the files matching a search, best first: a name (or original name) that is the query or
 * starts with it, then a tag, then names containing every word, then names with a word like the
 * query (a typo). See searchSql for the order within each kind.
 */
export async function searchFileIds(
  ctx: ViewerContext,
  q: unknown,
  options: { limit?: number; offset?: number } = {},
): Promise<string[]> {
  const rows = await ctx.db.$queryRaw<{ id: string }[]>(searchSql(ctx.viewer.id, parse(searchQueryInput, q), options));
  return rows.map((r) => r.id);
}

/**
 * Files holding a query's longest run of letters and digits, below which the word table finds
 * the files with a word like DSC_0012345 (above it, the trigram indexes do: the other runs of a
 * name like diner_lisbon_0042.jpg may rule out every file, and their trigrams find that at once).
 */
const RARE_RUN = 1000;

/** How many of the newest files the search reads in order before it asks the indexes instead. */
export const SEARCH_RECENT_WINDOW = 2000;

/** What stands before each tag in "scoutbase_tags_text" (the tag_prefix_search migration). */
const TAG_START = '\x1f';

/**
 * The one search statement (exported so tests can check its plan and its tiers).
 *
 * Scoring every match and sorting would read all of them: on a large library that is tens of
 * thousands of rows for a common word. So the statement ranks in tiers, and each tier reads only
 * as far as the page needs (`offset + limit` files):
 *  1. the name or original name starts with the query, in name order (an exact name sorts
 *     first): read in that order from an index per way in (own files by owner and name, public
 *     files by name, files of shared galleries from the few the viewer has), so a prefix shared by
 *     thousands of other people's files costs nothing;
 *  2. a tag, 3. every word in the name or original name, 4. a word like the query in the name
 *     (a typo: only for queries of letters, and not in the original name, since camera names
 *     like DSC_0012345 all look alike). Newest first: the newest `window` files are read in
 *     order and sorted into these tiers; only a tier that found fewer than the page there asks
 *     for the older matches: its tags or trigram index, or for words of letters and digits the
 *     word table (FileWord), read newest first and stopped at the page. The typo test, the
 *     costliest per row, reads the newest files in a pass of its own, only when needed.
 * A tier runs only when the tiers above it found fewer files than the page needs, and a file in
 * several tiers counts in its best, so the page is exactly that of the full ranking. The viewer's
 * shared files are collected once, not checked per row.
 */
export function searchSql(
  userId: string,
  query: string,
  {
    limit = 50,
    offset = 0,
    window = SEARCH_RECENT_WINDOW,
    rareRun = RARE_RUN,
  }: { limit?: number; offset?: number; window?: number; rareRun?: number } = {},
) {
  const lower = query.toLowerCase();
  const prefix = `${escapeLike(lower)}%`;
  const words = lower.split(/[\s,]+/).filter((w) => w.length > 0);
  const tags = [...new Set([lower, ...words])];
  const wanted = offset + limit;
  const containsEvery = (column: string) =>
    Prisma.join(
      words.map((w) => Prisma.sql`${Prisma.raw(column)} ILIKE ${`%${escapeLike(w)}%`}`),
      ' AND ',
    );
  // The runs of letters and digits in the query (FileWord's words are those of file names).
  // Words made only of such runs ("warehouse detroit") are "walkable": the every-word tier reads
  // every file holding them from the word table. Otherwise (file names with _ or .) it can when
  // the query's longest run is rare (DSC_0012345); a common one leaves it to the trigram indexes.
  const parts = [...new Set(lower.split(/[^0-9a-z\u0080-\u{10ffff}]+/u).filter((p) => p.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  const walkable = words.every((w) => /^[0-9a-z\u0080-\u{10ffff}]+$/u.test(w)) && (parts[0]?.length ?? 0) >= 3;
  const match = {
    // A tag that is a word of the query, or that starts with the whole query ("canon" finds
    // "canon eos r5"). The prefix needs a run of three letters or digits: the trigram index finds
    // nothing to look up in less, and would read all of itself.
    tag:
      (parts[0]?.length ?? 0) >= 3
        ? Prisma.sql`(f.tags && ${tags}::text[] OR "scoutbase_tags_text"(f.tags) LIKE ${`%${TAG_START}${escapeLike(lower)}%`})`
        : Prisma.sql`f.tags && ${tags}::text[]`,
    words: Prisma.sql`((${containsEvery('f.name')}) OR (${containsEvery('f."originalName"')}))`,
    // A typo is in a word: a query with digits or punctuation (a file or camera name) names
    // files, and DSC_0012346 is not a misspelling of DSC_0012345.
    like: /^[\p{L}\s]+$/u.test(lower) ? Prisma.sql`f.name %> ${lower}` : Prisma.sql`false`,
  };
  const readable = readableFileSql(userId, 'f', 'shared');
  /** Distinct files found by the given sets (each a "SELECT id FROM …"), for a tier's gate. */
  const found = (...sets: string[]) =>
    Prisma.sql`(SELECT count(*) FROM (${Prisma.raw(sets.join(' UNION '))}) found) < ${wanted}`;
  // Each of the three ways in has its own index in name order, so a common prefix (every
  // "kitchen_…") costs no more than the page, even when most such files are someone else's.
  const starting = (column: string) => {
    // In the indexes' byte order ("C"), the one in which a prefix is a contiguous range.
    const key = Prisma.raw(`(lower(f.${column}) COLLATE "C")`);
    const first = (from: Prisma.Sql, where: Prisma.Sql) => Prisma.sql`(SELECT f.id, f."createdAt", ${key} AS key
      FROM ${from} WHERE ${key} LIKE ${prefix} AND ${where} ORDER BY ${key}, f.id LIMIT ${wanted})`;
    return Prisma.join(
      [
        first(Prisma.sql`"File" f`, Prisma.sql`f."ownerId" = ${userId}::uuid`),
        first(Prisma.sql`"File" f`, Prisma.sql`f."isPublic" AND f."ownerId" <> ${userId}::uuid`),
        first(
          Prisma.sql`shared JOIN "File" f ON f.id = shared.id`,
          Prisma.sql`NOT f."isPublic" AND f."ownerId" <> ${userId}::uuid`,
        ),
      ],
      ' UNION ALL ',
    );
  };
  // Matches older than the window, all of them (MATERIALIZED keeps PostgreSQL from walking the
  // createdAt index for them, which its estimates sometimes favour: on a rare word it would read
  // the whole table); sorted and cut to the page below.
  const older = (name: string, condition: Prisma.Sql, gate: Prisma.Sql) =>
    Prisma.sql`${Prisma.raw(name)} AS MATERIALIZED (
      SELECT f.id, f."createdAt" FROM "File" f
      WHERE ${gate} AND ${condition} AND ${readable} AND f.id NOT IN (SELECT id FROM newest)
    )`;
  // Files with every word. A word of letters and digits is in a name exactly when it is in one
  // of the name's words (FileWord, kept by triggers), and each run of letters and digits of any
  // query word is in one of them, so the files holding the word that contain the longest run
  // include every match. They are read newest first, each checked for the other runs there
  // first (an index probe, not the file row), then against the file row, and the read stops at
  // the page: a common word costs the page, not its thousands of files.
  const containing = (gate: Prisma.Sql) => {
    const [driver = '', ...others] = parts;
    if (driver.length < 3) return older('containing', match.words, gate);
    const holding = (part: string) =>
      // lower() as ILIKE does it, so that the words found are exactly those ILIKE would match.
      Prisma.sql`(SELECT v.word FROM "Word" v WHERE v.word LIKE '%' || lower(${part}) || '%')`;
    // Runs under three characters have no trigram to find their words by; the check of the file
    // row covers them.
    const probes = others
      .filter((p) => p.length >= 3)
      .map(
        (p) => Prisma.sql`EXISTS (SELECT 1 FROM "FileWord" o WHERE o.word = ANY(array${holding(p)})
          AND o."createdAt" = fw."createdAt" AND o."fileId" = fw."fileId" OFFSET 0)`,
      );
    // The newest files' pass checks every word itself when the query is not walkable.
    const beyond = walkable ? Prisma.empty : Prisma.sql`AND fw."fileId" NOT IN (SELECT id FROM newest)`;
    // The checks are subqueries that stay per row (OFFSET 0 keeps PostgreSQL from turning them
    // into joins, which would read every file with the words and sort them); CASE runs the probes
    // first (PostgreSQL would order them by cost).
    const walk = (when: Prisma.Sql) => Prisma.sql`
      SELECT DISTINCT c.id, c."createdAt" FROM ${holding(driver)} t CROSS JOIN LATERAL (
        SELECT fw."fileId" AS id, fw."createdAt" FROM "FileWord" fw
        WHERE ${gate} AND ${when} AND fw.word = t.word ${beyond}
          AND CASE WHEN ${Prisma.join([Prisma.sql`true`, ...probes], ' AND ')}
            THEN EXISTS (SELECT 1 FROM "File" f WHERE f.id = fw."fileId" AND ${match.words} AND ${readable} OFFSET 0)
            ELSE false END
        ORDER BY fw."createdAt" DESC, fw."fileId" DESC
        LIMIT ${wanted}
      ) c`;
    if (walkable) return Prisma.sql`containing AS MATERIALIZED (${walk(Prisma.sql`true`)})`;
    const rare = Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM "FileWord" r
      WHERE r.word = ANY(array${holding(driver)}) LIMIT ${rareRun}) few) < ${rareRun}`;
    return Prisma.sql`containing AS MATERIALIZED (
      ${walk(rare)}
      UNION ALL
      SELECT f.id, f."createdAt" FROM "File" f
      WHERE ${gate} AND NOT ${rare} AND ${match.words} AND ${readable} AND f.id NOT IN (SELECT id FROM newest)
    )`;
  };
  return Prisma.sql`
    WITH shared AS MATERIALIZED ( -- the gallery part of readableFileSql, once per search
      ${galleryFilesSql(userId)}
    ),
    starts AS (${starting('name')} UNION ALL ${starting('"originalName"')}),
    newest AS MATERIALIZED (SELECT id FROM "File" ORDER BY "createdAt" DESC, id DESC LIMIT ${window}),
    recent AS (
      SELECT f.id, f."createdAt", CASE WHEN ${match.tag} THEN 3 ELSE 2 END AS rank
      FROM (SELECT * FROM "File" ORDER BY "createdAt" DESC, id DESC LIMIT ${window}) f
      WHERE ${found('SELECT id FROM starts')} AND ${walkable ? match.tag : Prisma.sql`(${match.tag} OR ${match.words})`}
        AND ${readable}
    ),
    ${older('tagged', match.tag, found('SELECT id FROM starts', 'SELECT id FROM recent WHERE rank = 3'))},
    ${containing(found('SELECT id FROM starts', 'SELECT id FROM recent', 'SELECT id FROM tagged'))},
    -- The typo test is the costliest per row, so it reads the newest files in a pass of its own
    -- that runs only when the tiers above are short of the page.
    recent_alike AS MATERIALIZED (
      SELECT f.id, f."createdAt"
      FROM (SELECT * FROM "File" ORDER BY "createdAt" DESC, id DESC LIMIT ${window}) f
      WHERE ${found('SELECT id FROM starts', 'SELECT id FROM recent', 'SELECT id FROM tagged', 'SELECT id FROM containing')}
        AND ${match.like} AND ${readable}
    ),
    ${older('alike', match.like, found('SELECT id FROM starts', 'SELECT id FROM recent', 'SELECT id FROM tagged', 'SELECT id FROM containing', 'SELECT id FROM recent_alike'))}
    SELECT id::text AS id
    FROM (
      SELECT id, "createdAt", 4 AS rank, key FROM starts
      UNION ALL SELECT id, "createdAt", rank, NULL FROM recent
      UNION ALL SELECT id, "createdAt", 1, NULL FROM recent_alike
      UNION ALL (SELECT id, "createdAt", 3, NULL FROM tagged ORDER BY "createdAt" DESC, id DESC LIMIT ${wanted})
      UNION ALL (SELECT id, "createdAt", 2, NULL FROM containing ORDER BY "createdAt" DESC, id DESC LIMIT ${wanted})
      UNION ALL (SELECT id, "createdAt", 1, NULL FROM alike ORDER BY "createdAt" DESC, id DESC LIMIT ${wanted})
    ) candidates
    GROUP BY id, "createdAt"
    ORDER BY max(rank) DESC, min(key), "createdAt" DESC, id DESC
    LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The viewer's folders whose name holds the query, by name: folders are each person's own, so
 * only the viewer's are searched (the owner's index finds them; PostgreSQL does the matching).
 */
export function folderSearch(ctx: ViewerContext, q: unknown) {
  const query = parse(searchQueryInput, q);
  return {
    where: {
      ownerId: ctx.viewer.id,
      name: { contains: escapeLike(query), mode: 'insensitive' as const },
    } satisfies Prisma.FolderWhereInput,
    orderBy: [...FOLDER_ORDER],
  };
}

/**
 * The names of the folders from the top level down to each of these folders (the viewer's own;
 * [] for none), in one query: a search result says where it is, so that two files of one name
 * in different folders do not look like the same file twice.
 */
export async function folderPaths(ctx: ViewerContext, folderIds: (string | null)[]): Promise<Map<string, string[]>> {
  const ids = [...new Set(folderIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.$queryRaw<{ id: string; names: string[] }[]>(Prisma.sql`
    WITH RECURSIVE up(start, id, "parentId", name, depth) AS (
      SELECT f.id, f.id, f."parentId", f.name, 0 FROM "Folder" f
      WHERE f.id = ANY(${ids}::uuid[]) AND f."ownerId" = ${ctx.viewer.id}::uuid
      UNION ALL
      SELECT up.start, f.id, f."parentId", f.name, up.depth + 1 FROM "Folder" f JOIN up ON f.id = up."parentId"
      WHERE up.depth < 1000
    )
    SELECT start::text AS id, array_agg(name ORDER BY depth DESC) AS names FROM up GROUP BY start`);
  return new Map(rows.map((r) => [r.id, r.names]));
}

/** A file's folder path for the viewer: null for other people's files, whose folders are theirs. */
export function folderPathOf(
  viewerId: string,
  file: { ownerId: string; folderId: string | null },
  paths: Map<string, string[]>,
): string[] | null {
  if (!seesFolderOf(viewerId, file)) return null;
  return file.folderId ? (paths.get(file.folderId) ?? []) : [];
}

/** Files matching a search that the viewer may read, best match first. */
export async function searchFiles(ctx: ViewerContext, q: unknown, options: { limit?: number; offset?: number } = {}) {
  const page = searchSql(ctx.viewer.id, parse(searchQueryInput, q), options);
  // The page's rows in the same statement, in its order: one round trip instead of ids, then rows.
  return ctx.db.$queryRaw<File[]>(Prisma.sql`
    SELECT f.* FROM unnest(ARRAY(${page})) WITH ORDINALITY AS page(id, n) JOIN "File" f ON f.id = page.id::uuid
    ORDER BY page.n`);
}

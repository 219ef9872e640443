// pnpm bench:search — GET /api/files/search latency (p50/p95) over a large library: 100,000 files
// on the embedded database (PGlite) and 1,000,000 on PostgreSQL. Baseline in the same run: the
// same search statement (searchSql from api/src/files/search.ts) timed alone, through `pg` directly
// on PostgreSQL and through the app's own database client on PGlite (no pg driver there).
// Target: p95 under 50 ms on PostgreSQL. Prints the plan of the slowest query.
// Options (environment): BENCH_PGLITE_FILES (100000), BENCH_PG_FILES (1000000), BENCH_ROUNDS (3
// per query), BENCH_PG_URL, BENCH_INDEX_MEMORY (maintenance_work_mem for the index builds, 512MB),
// BENCH_KEEP_DB=1 (keep the seeded PostgreSQL database and print its URL and the viewer's id, to
// study plans against it with psql instead of seeding 1M files again).
// The direct client uses the app's settings (JIT off) so the baseline is the same statement under
// the same settings. Seeding drops the secondary indexes of "File" and its word tables, bulk-inserts, rebuilds
// them from their own definitions and checks the index list is the migrations' again.
import type { Prisma } from '../api/src/generated/prisma/client.ts';
import { searchSql } from '../api/src/files/search.ts';
import {
  machine,
  n,
  percentile,
  pg,
  round,
  saveResults,
  signUp,
  startServer,
  summary,
  throwawayPostgres,
} from './lib.ts';

const PGLITE_FILES = n('BENCH_PGLITE_FILES', 100_000);
const PG_FILES = n('BENCH_PG_FILES', 1_000_000);
const ROUNDS = n('BENCH_ROUNDS', 3);

// What people type: a place, a city, both, a camera file name, a tag, a typo, an exact name.
const QUERIES = [
  'kitchen',
  'brooklyn',
  'warehouse detroit',
  'DSC_0012345',
  'night',
  'rooftp',
  'diner_lisbon_0042.jpg',
  'no such thing anywhere',
];

// Names like a scout's library: <place>_<city>_<number>.<ext> and camera originals, 1–3 tags;
// one file in ten belongs to someone else (not shared), so the access rule has work to do.
const SEED = `
  INSERT INTO "File" (id, "ownerId", name, "originalName", "mimeType", size, "objectUrl", "objectPath", tags, "createdAt", "updatedAt")
  SELECT gen_random_uuid(), CASE WHEN i % 10 = 0 THEN $2::uuid ELSE $1::uuid END,
    (ARRAY['kitchen','warehouse','rooftop','diner','alley','lobby','bedroom','garage','church','barn','pier','hallway',
           'office','bar','motel','station','library','factory','greenhouse','stairwell'])[1 + (i * 7) % 20]
      || '_' || (ARRAY['paris','brooklyn','lisbon','detroit','tokyo','austin','berlin','glasgow','oslo','marrakech',
                       'lagos','lima','seoul','quebec'])[1 + (i * 13) % 14]
      || '_' || lpad((i % 9973)::text, 4, '0')
      || (ARRAY['.jpg','.jpg','.jpg','.jpeg','.cr2','.pdf','.mov','.png'])[1 + i % 8],
    'DSC_' || lpad(i::text, 7, '0') || '.jpg',
    'image/jpeg', 1000000 + i % 5000000, '/objects/uploads/b' || i, '/objects/uploads/b' || i,
    (ARRAY[(ARRAY['exterior','interior','night','day','period','modern','rain','sunny'])[1 + i % 8]]
      || CASE WHEN i % 3 = 0 THEN ARRAY[(ARRAY['wide','detail','aerial','crew','parking','power','kitchen','victorian','brutalist','neon','quiet'])[1 + (i / 8) % 11]] ELSE ARRAY[]::text[] END
      || CASE WHEN i % 7 = 0 THEN ARRAY['approved'] ELSE ARRAY[]::text[] END),
    now() - (i % 100000) * interval '1 minute', now()
  FROM generate_series($3::int, $4::int) i`;

type Queryable = {
  $executeRawUnsafe: (sql: string, ...values: unknown[]) => Promise<number>;
  $queryRawUnsafe: (sql: string, ...values: unknown[]) => Promise<unknown>;
  $queryRaw: (sql: Prisma.Sql) => Promise<unknown>;
};
/** One session for the whole seeding (SET must reach the CREATE INDEX statements). */
type Seeder = {
  run: (sql: string, ...values: unknown[]) => Promise<unknown>;
  rows: <T>(sql: string) => Promise<T[]>;
  /** maintenance_work_mem for building the indexes (PostgreSQL; PGlite keeps its small default). */
  indexMemory?: string;
};

// The indexes of "File" and of the search's word tables (filled by triggers on "File" as the rows
// go in, the same rows any insert gets) that no constraint owns (the primary keys stay: "Word"'s
// takes the triggers' ON CONFLICT), with the definition
// migrations gave them (pg_get_indexdef keeps expressions, WHERE, and WITH (gin_pending_list_limit)).
const SECONDARY_INDEXES = `
  SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
  WHERE i.schemaname = current_schema() AND i.tablename IN ('File', 'FileWord', 'Word')
    AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                    WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)
  ORDER BY i.indexname`;
const ALL_INDEXES = `SELECT indexdef AS definition FROM pg_indexes
  WHERE schemaname = current_schema() AND tablename IN ('File', 'FileWord', 'Word') ORDER BY indexname`;

async function seed(db: Seeder, files: number, owner: string, other: string) {
  const started = performance.now();
  const before = (await db.rows<{ definition: string }>(ALL_INDEXES)).map((row) => row.definition);
  // A bulk import's usual way: maintaining a dozen indexes row by row took 346 s for 1M files,
  // building each once over the loaded table takes a fraction. The measured table is the same
  // (checked below): same rows, same index definitions, built, then vacuumed.
  const secondary = await db.rows<{ name: string; definition: string }>(SECONDARY_INDEXES);
  for (const index of secondary) await db.run(`DROP INDEX "${index.name.replaceAll('"', '""')}"`);
  // In batches, so the embedded database's memory stays bounded.
  const batch = 100_000;
  for (let from = 1; from <= files; from += batch) {
    await db.run(SEED, owner, other, from, Math.min(files, from + batch - 1));
  }
  const loadedSeconds = round((performance.now() - started) / 1000, 1);
  if (db.indexMemory) await db.run(`SET maintenance_work_mem = '${db.indexMemory}'`);
  for (const index of secondary) await db.run(index.definition);
  if (db.indexMemory) await db.run('RESET maintenance_work_mem');
  const after = (await db.rows<{ definition: string }>(ALL_INDEXES)).map((row) => row.definition);
  if (JSON.stringify(after) !== JSON.stringify(before))
    throw new Error(
      `Search indexes differ from the migrations' after seeding:\n${before.join('\n')}\n---\n${after.join('\n')}`,
    );
  const indexedSeconds = round((performance.now() - started) / 1000, 1);
  // The steady state of a library: autovacuum has marked the pages all-visible (index-only scans)
  // and gathered statistics, as it does on its own some time after an import.
  await db.run('VACUUM ANALYZE "File", "FileWord", "Word"');
  const seconds = round((performance.now() - started) / 1000, 1);
  console.log(
    `  seeded in ${seconds} s (rows ${loadedSeconds} s, ${secondary.length} indexes ${round(indexedSeconds - loadedSeconds, 1)} s, vacuum ${round(seconds - indexedSeconds, 1)} s)`,
  );
  return { seconds, loadSeconds: loadedSeconds, indexSeconds: round(indexedSeconds - loadedSeconds, 1) };
}

async function measure(kind: 'pglite' | 'postgres', files: number) {
  const database = kind === 'postgres' ? await throwawayPostgres('search') : null;
  const server = await startServer({ databaseUrl: database?.url });
  let keptViewer = '';
  try {
    const viewer = await signUp(server.origin, server.db);
    keptViewer = viewer.userId;
    const other = await signUp(server.origin, server.db, 'Someone Else');
    console.log(`${kind}: seeding ${files.toLocaleString('en')} files…`);
    const direct = database ? new pg.Client({ connectionString: database.url, options: '-c jit=off' }) : null;
    await direct?.connect();
    const appDb = server.db as unknown as Queryable;
    const seeder: Seeder = direct
      ? {
          run: (sql, ...values) => direct.query(sql, values),
          rows: async (sql) => (await direct.query(sql)).rows,
          indexMemory: process.env.BENCH_INDEX_MEMORY ?? '512MB',
        }
      : {
          run: (sql, ...values) => appDb.$executeRawUnsafe(sql, ...values),
          rows: async <T>(sql: string) => (await appDb.$queryRawUnsafe(sql)) as T[],
        };
    const seeded = await seed(seeder, files, viewer.userId, other.userId);
    const rawQuery = async (q: string) => {
      const statement = searchSql(viewer.userId, q, { limit: 50 });
      if (direct) return direct.query(statement.text, statement.values);
      return server.db.$queryRaw(statement);
    };
    const search = async (q: string) => {
      const url = `${server.origin}/api/files/search?q=${encodeURIComponent(q)}`;
      // After the long seeding the client may reuse a kept-alive socket the server just closed.
      const answer = await fetch(url, { headers: { cookie: viewer.cookie } }).catch(() =>
        fetch(url, { headers: { cookie: viewer.cookie } }),
      );
      if (!answer.ok) throw new Error(`search ${q}: ${answer.status} ${await answer.text()}`);
      return (await answer.json()) as unknown[];
    };
    // Warm up caches and plans once per query.
    const hits: Record<string, number> = {};
    for (const q of QUERIES) {
      hits[q] = (await search(q)).length;
      await rawQuery(q);
    }
    const app: number[] = [];
    const raw: number[] = [];
    const perQuery: Record<string, { hits: number; appP50Ms: number; rawP50Ms: number }> = {};
    for (const q of QUERIES) {
      const appTimes: number[] = [];
      const rawTimes: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        let t = performance.now();
        await search(q);
        appTimes.push(performance.now() - t);
        t = performance.now();
        await rawQuery(q);
        rawTimes.push(performance.now() - t);
      }
      app.push(...appTimes);
      raw.push(...rawTimes);
      perQuery[q] = {
        hits: hits[q] ?? 0,
        appP50Ms: round(percentile(appTimes, 50)),
        rawP50Ms: round(percentile(rawTimes, 50)),
      };
    }
    let slowestPlan: string[] | undefined;
    if (direct) {
      const slowest = Object.entries(perQuery).sort((a, b) => b[1].rawP50Ms - a[1].rawP50Ms)[0]?.[0] ?? QUERIES[0];
      const statement = searchSql(viewer.userId, slowest as string, { limit: 50 });
      const plan = await direct.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
      slowestPlan = [`query: ${slowest}`, ...plan.rows.map((row) => row['QUERY PLAN'] as string)];
    }
    await direct?.end();
    const result = {
      files,
      seedSeconds: seeded.seconds,
      seeding: seeded,
      app: summary(app),
      rawSql: summary(raw),
      ratioP50: round(percentile(raw, 50) / percentile(app, 50), 3),
      perQuery,
      ...(slowestPlan ? { slowestPlan } : {}),
    };
    console.log(
      `  GET /api/files/search  p50 ${result.app.p50Ms} ms  p95 ${result.app.p95Ms} ms   raw SQL p50 ${result.rawSql.p50Ms} ms  p95 ${result.rawSql.p95Ms} ms   ratio (raw/app p50) ${result.ratioP50}`,
    );
    for (const [q, r] of Object.entries(perQuery))
      console.log(
        `    ${JSON.stringify(q).padEnd(26)} ${String(r.hits).padStart(3)} hits  app ${r.appP50Ms} ms  raw ${r.rawP50Ms} ms`,
      );
    return result;
  } finally {
    await server.close();
    if (database && process.env.BENCH_KEEP_DB === '1') console.log(`  kept ${database.url} (viewer ${keptViewer})`);
    else await database?.drop();
  }
}

console.log(
  `Search benchmark, ${ROUNDS} rounds of ${QUERIES.length} queries, ${machine().cpus} CPU(s), load ${machine().load}\n`,
);
const pglite = await measure('pglite', PGLITE_FILES);
const postgres = await measure('postgres', PG_FILES);
if (postgres.slowestPlan)
  console.log(`\nPlan of the slowest query on PostgreSQL:\n  ${postgres.slowestPlan.join('\n  ')}`);
console.log(
  `\nTarget: p95 under 50 ms on PostgreSQL: ${postgres.app.p95Ms < 50 ? 'met' : 'MISSED'} (${postgres.app.p95Ms} ms)`,
);
await saveResults('search', { date: new Date().toISOString(), machine: machine(), rounds: ROUNDS, pglite, postgres });

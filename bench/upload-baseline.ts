// The baselines of bench:upload, each doing the least the real job must do, on the same machine,
// folder and database as the app in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { pg } from './lib.ts';

/** One INSERT of a received file's record, in the app's database. */
export type RecordFile = (row: { id: string; file: string; size: number; checksum: string }) => Promise<void>;

/**
 * A bare node:http server that streams each PUT body into a new file of `dir`, hashing it with
 * sha256 on the way, fsyncs it and answers its checksum; with `record`, one INSERT per file before
 * the answer. Everything else the app does per upload (session, quota, the type from the first
 * bytes, its records, the processing job) is what the ratio against it prices.
 */
export async function startBaselineServer(dir: string, record?: RecordFile) {
  await mkdir(dir, { recursive: true });
  const server = createServer(async (request, response) => {
    try {
      const id = randomUUID();
      const file = path.join(dir, id);
      const hash = createHash('sha256');
      let size = 0;
      await pipeline(
        request,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        // flush: fsync before the file is closed, so the answer comes once the bytes are on disk.
        createWriteStream(file, { flush: true }),
      );
      const checksum = hash.digest('hex');
      await record?.({ id, file, size, checksum });
      response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ checksum }));
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const TABLE = 'bench_baseline_file';
const CREATE = `CREATE TABLE IF NOT EXISTS ${TABLE} (id uuid PRIMARY KEY, path text NOT NULL, size bigint NOT NULL,
  checksum text NOT NULL, "createdAt" timestamptz NOT NULL DEFAULT now())`;
const INSERT = `INSERT INTO ${TABLE} (id, path, size, checksum) VALUES ($1, $2, $3, $4)`;

/**
 * The baseline's INSERT on the app's own database: its PGlite instance when embedded (one process
 * holds it), else a pool of its own on the same PostgreSQL server, like the app's. The table goes
 * when the baseline is done.
 */
export async function recordInDatabase(database: { pglite?: PGlite }, postgresUrl?: string) {
  if (database.pglite) {
    const db = database.pglite;
    await db.exec(CREATE);
    return {
      record: (async ({ id, file, size, checksum }) => {
        await db.query(INSERT, [id, file, size, checksum]);
      }) satisfies RecordFile,
      close: () => db.exec(`DROP TABLE ${TABLE}`).then(() => undefined),
    };
  }
  const pool = new pg.Pool({ connectionString: postgresUrl, max: 10 });
  await pool.query(CREATE);
  return {
    record: (async ({ id, file, size, checksum }) => {
      await pool.query(INSERT, [id, file, size, checksum]);
    }) satisfies RecordFile,
    close: async () => {
      await pool.query(`DROP TABLE ${TABLE}`);
      await pool.end();
    },
  };
}

/** Debian's libvips-tools gives `vipsthumbnail`; installed here when missing, as CI installs chromium. */
export function vipsthumbnail() {
  const found = () => spawnSync('vipsthumbnail', ['--version']).status === 0;
  if (!found()) {
    console.log('Installing libvips-tools for vipsthumbnail…');
    spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq libvips-tools >/dev/null'], {
      stdio: 'inherit',
    });
  }
  if (!found()) throw new Error('vipsthumbnail is missing and could not be installed (apt-get install libvips-tools)');
  return execFileSync('vipsthumbnail', ['--version'], { encoding: 'utf8' }).trim();
}

/**
 * vipsthumbnail making the app's two variants of every photo (upright, WebP, at most `size` on the
 * longer side, the app's qualities), one process per variant for all the photos so that starting
 * the tool is paid twice, not per photo; `threads` as VIPS_CONCURRENCY.
 */
export function vipsThumbnails(
  files: string[],
  variants: Record<string, { size: number; quality: number }>,
  threads: number,
) {
  for (const [name, { size, quality }] of Object.entries(variants)) {
    execFileSync(
      'vipsthumbnail',
      [...files, '--size', `${size}x${size}>`, '-o', `%s.vips-${name}.webp[Q=${quality},strip]`],
      { env: { ...process.env, VIPS_CONCURRENCY: String(threads) }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
}

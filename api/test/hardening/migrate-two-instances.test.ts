import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/infra/db/database.ts';
import { postgresReachable, scratchPostgresDatabase } from '../harness.ts';

// Two app servers started with MIGRATE_ON_START=true on one PostgreSQL: the second must start
// while the first runs. The migration engine takes PostgreSQL's session-level advisory lock; on a
// connection the first server's pool kept, the lock outlived the migration and the second server
// waited on it until its start timed out.
describe.runIf(await postgresReachable())('migrating on start with another instance running', () => {
  it('leaves no migration lock held by the running instance, so the next one migrates and starts', async () => {
    const scratch = await scratchPostgresDatabase('migrate_two');
    const first = await openDatabase({ kind: 'postgres', url: scratch.url }, { migrate: true });
    try {
      const probe = new pg.Client({ connectionString: scratch.url });
      await probe.connect();
      const { rows } = await probe.query<{ held: number }>(
        // This database's locks only: other tests' databases on the same server hold their own.
        `SELECT count(*)::int AS held FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()`,
      );
      await probe.end();
      expect(rows[0]?.held).toBe(0);

      const second = await Promise.race([
        openDatabase({ kind: 'postgres', url: scratch.url }, { migrate: true }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the second start waited 20 s')), 20_000)),
      ]);
      await second.close();
    } finally {
      await first.close();
      await scratch.drop();
    }
  }, 60_000);
});

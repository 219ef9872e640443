import { readConfig } from '../src/config.ts';
import { askServerOrRunHere } from '../src/infra/admin-socket.ts';
import { openDatabase } from '../src/infra/db/database.ts';

type Config = ReturnType<typeof readConfig>;
type Prisma = Awaited<ReturnType<typeof openDatabase>>['prisma'];

/**
 * Runs a command that writes accounts. With the embedded database and a server running on the same
 * DATA_DIR, the server runs it (over its admin socket): only the process holding the database may
 * write to it. Otherwise it runs here, on a database opened for it and closed after.
 */
export async function runAccountCommand<T>(
  command: string,
  input: Record<string, unknown>,
  work: (prisma: Prisma, config: Config) => Promise<T>,
): Promise<T> {
  const config = readConfig(process.env);
  const here = async () => {
    const db = await openDatabase(config.database, {
      migrate: config.migrateOnStart || config.database.kind === 'embedded',
    });
    try {
      return await work(db.prisma, config);
    } finally {
      await db.close();
    }
  };
  return config.database.kind === 'embedded' ? askServerOrRunHere<T>(config.dataDir, command, input, here) : here();
}

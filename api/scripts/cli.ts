import { ConfigError } from '../src/config.ts';
import { AdminCommandError } from '../src/infra/admin-socket.ts';
import { DataDirInUseError } from '../src/infra/db/data-dir-lock.ts';
import { keepFilesPrivate } from '../src/infra/private-files.ts';

// Every command writes into the data folder (or a backup beside it): for the owner alone.
keepFilesPrivate();

type ErrorKind = abstract new (...args: never[]) => Error;

/**
 * How a command ends on an error. One the person can act on (a bad setting, a refusal from the
 * running server, a data folder in use, or one of `also`) prints its message alone and exits 1;
 * anything else is a bug, thrown on with its stack.
 */
export function exitOnKnownError(error: unknown, also: ErrorKind[] = []): never {
  const known: ErrorKind[] = [ConfigError, AdminCommandError, DataDirInUseError, ...also];
  if (known.some((kind) => error instanceof kind)) {
    console.error((error as Error).message);
    process.exit(1);
  }
  throw error;
}

import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import { isDatabaseUnavailable } from './infra/db/database.ts';

/** Where the database is, for a message: host and port only, never the password in the URL. */
function databaseAddress(config: Pick<Config, 'database'>) {
  if (config.database.kind === 'embedded') return `the embedded database in ${config.database.dataDir}`;
  try {
    const url = new URL(config.database.url);
    return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'the PostgreSQL server of DATABASE_URL';
  }
}

function codeOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** A configuration error lists one setting a line; at start-up it is said in one line. */
export function configErrorLine(message: string): string {
  const [head = '', ...problems] = message.split('\n').map((line) => line.trim());
  return problems.length > 0 ? `${head} ${problems.filter(Boolean).join('; ')}` : head;
}

/**
 * One line an operator can act on, for anything that stops the server from starting: a wrong
 * setting, a database that does not answer or refuses us, a port in use, a data folder held by
 * another process. Unknown failures get one line too, and the stack at LOG_LEVEL=debug.
 */
export function startupErrorLine(error: unknown, config: Pick<Config, 'database' | 'port' | 'host'>): string {
  const message = error instanceof Error ? error.message : String(error);
  // These already say what to do (a wrong setting, a data folder in use).
  if (error instanceof ConfigError) return configErrorLine(message);
  if (error instanceof Error && error.name === 'DataDirInUseError') return message;
  const code = codeOf(error);
  if (code === 'EADDRINUSE') {
    return `Cannot listen on ${config.host}:${config.port}: the port is in use by another program. Stop it, or set PORT to a free port.`;
  }
  if (code === 'EACCES' && /listen/i.test(message)) {
    return `Cannot listen on ${config.host}:${config.port}: not allowed (ports below 1024 need privileges). Set PORT to 1024 or above.`;
  }
  const database = databaseAddress(config);
  if (code === '28P01' || code === '28000' || /password authentication failed|no pg_hba\.conf entry/i.test(message)) {
    return `The database refused to sign in (${database}): check the user and password in DATABASE_URL.`;
  }
  if (code === '3D000' || /database .* does not exist/i.test(message)) {
    return `The database does not exist (${database}): create it (createdb) or fix the name in DATABASE_URL.`;
  }
  if (isDatabaseUnavailable(error) || /can't reach database server/i.test(message)) {
    return `Cannot reach the database (${database}): is PostgreSQL running and DATABASE_URL right? (${message.split('\n')[0]})`;
  }
  return `Scoutbase could not start: ${message.split('\n')[0]} (LOG_LEVEL=debug prints the stack)`;
}

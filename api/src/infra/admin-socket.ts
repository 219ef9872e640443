import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * A local door into the running server for command-line tools (`pnpm user:create`, `pnpm backup`,
 * `pnpm jobs`). With the embedded database only the server may open the database (one writer), so a
 * tool asks the server to do the work instead of opening the folder behind its back.
 *
 * A unix socket in DATA_DIR, mode 0600: only the server's own user on this machine reaches it, the
 * same user that could read the database files anyway, so a command needs no further credentials.
 * One request per connection: a JSON line in (`{ command, args }`), a JSON line out
 * (`{ ok: true, result }` or `{ ok: false, error, status }`). A result may be followed by a raw byte
 * stream (`stream: true`), which the client reads to the end (backups).
 */

/** A command's handler. Throw AdminCommandError for a failure the tool should print as is. */
export type AdminCommand = (args: Record<string, unknown>) => Promise<unknown>;

/** A command answering with bytes after its JSON (an archive) instead of JSON alone. */
export interface StreamingAnswer {
  readonly streaming: true;
  json: unknown;
  body: AsyncIterable<Uint8Array>;
}

export function streamingAnswer(json: unknown, body: AsyncIterable<Uint8Array>): StreamingAnswer {
  return { streaming: true, json, body };
}

/** A failure the tool prints as its one line (bad input, a rule refused it), not a crash. */
export class AdminCommandError extends Error {}

/** Where the socket lives for a data folder. */
export function adminSocketPath(dataDir: string) {
  return path.join(path.resolve(dataDir), 'admin.sock');
}

export interface AdminSocket {
  readonly path: string;
  close(): Promise<void>;
}

/** Listens on `<DATA_DIR>/admin.sock`. Call it only while holding the data folder's lock. */
export async function startAdminSocket(
  dataDir: string,
  commands: Record<string, AdminCommand>,
  logger: Pick<Logger, 'error' | 'warn'>,
): Promise<AdminSocket> {
  const socketPath = adminSocketPath(dataDir);
  // A socket file left by a crashed server: we hold the lock, so nobody else is listening on it.
  await rm(socketPath, { force: true });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    void serve(socket, commands, logger);
  });
  // The file gets its mode from the umask when it is bound: make it 0600 from the start, not after
  // a window in which another user could connect. listen() binds synchronously, before any other
  // code of this thread runs, so the changed umask affects nothing else.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    await chmod(socketPath, 0o600);
  } catch (error) {
    // A DATA_DIR path longer than a socket address may be (about 100 bytes), a file system without
    // sockets: the server still runs; commands then say the folder is in use instead.
    logger.warn({ err: error, path: socketPath }, 'admin socket not available: commands cannot reach this server');
    server.close();
    return { path: socketPath, close: async () => {} };
  } finally {
    process.umask(umask);
  }
  return {
    path: socketPath,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}

async function serve(socket: Socket, commands: Record<string, AdminCommand>, logger: Pick<Logger, 'error'>) {
  const reply = (answer: object) => socket.write(`${JSON.stringify(answer)}\n`);
  try {
    const line = await readLine(socket);
    const request = JSON.parse(line) as { command?: unknown; args?: unknown };
    const command = typeof request.command === 'string' ? commands[request.command] : undefined;
    if (!command) {
      reply({ ok: false, error: `Unknown command ${JSON.stringify(request.command)}` });
      socket.end();
      return;
    }
    const args = request.args && typeof request.args === 'object' ? (request.args as Record<string, unknown>) : {};
    const result = await command(args);
    if (isStreaming(result)) {
      reply({ ok: true, result: result.json, stream: true });
      for await (const chunk of result.body) {
        if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
      }
    } else {
      reply({ ok: true, result: result ?? null });
    }
    socket.end();
  } catch (error) {
    if (!(error instanceof AdminCommandError) && !(error as { expose?: boolean }).expose) {
      logger.error({ err: error }, 'admin command failed');
    }
    if (!socket.destroyed) {
      reply({ ok: false, error: error instanceof Error ? error.message : String(error) });
      socket.end();
    }
  }
}

function isStreaming(value: unknown): value is StreamingAnswer {
  return typeof value === 'object' && value !== null && (value as StreamingAnswer).streaming === true;
}

/** Reads up to the first newline; what follows it stays in the socket for the caller. */
function readLine(socket: Socket, limit = 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(10);
      if (end >= 0) {
        cleanup();
        const rest = buffered.subarray(end + 1);
        if (rest.length > 0) socket.unshift(rest);
        resolve(buffered.subarray(0, end).toString('utf8'));
      } else if (buffered.length > limit) {
        cleanup();
        reject(new AdminCommandError('request too large'));
      }
    };
    const onEnd = () => {
      cleanup();
      reject(new AdminCommandError('connection closed before a full line'));
    };
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onEnd);
      socket.pause();
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onEnd);
  });
}

/** No server listens on the folder's socket (none running, or one that crashed). */
export class NoServerError extends Error {}

/**
 * Asks the server running on `dataDir` to run a command. Throws NoServerError when none listens
 * (the tool then does the work itself), AdminCommandError with the server's message when it refused.
 * With `stream`, the bytes after the answer are handed to it and awaited.
 */
export async function callAdmin(
  dataDir: string,
  command: string,
  args: Record<string, unknown> = {},
  options: { stream?: (body: Socket) => Promise<void> } = {},
): Promise<unknown> {
  const socketPath = adminSocketPath(dataDir);
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = createConnection(socketPath);
    s.once('connect', () => {
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new NoServerError(`no server is listening on ${socketPath}`)
          : error,
      );
    });
  });
  try {
    socket.write(`${JSON.stringify({ command, args })}\n`);
    const answer = JSON.parse(await readLine(socket)) as {
      ok: boolean;
      result?: unknown;
      error?: string;
      stream?: boolean;
    };
    if (!answer.ok) throw new AdminCommandError(answer.error ?? 'the server refused the command');
    if (answer.stream) {
      if (!options.stream) throw new Error(`${command} answered with bytes, but nobody reads them`);
      await options.stream(socket);
    }
    return answer.result;
  } finally {
    socket.destroy();
  }
}

/**
 * For a tool on the embedded database: the running server's answer when one holds the folder,
 * else `here()`, which opens the folder itself (and takes its lock). A server still starting holds
 * the folder before its socket listens, so a refusal with DataDirInUseError is retried for a while.
 */
export async function askServerOrRunHere<T>(
  dataDir: string,
  command: string,
  args: Record<string, unknown>,
  here: () => Promise<T>,
  options: { waitMs?: number; stream?: (body: Socket) => Promise<void> } = {},
): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    try {
      return (await callAdmin(dataDir, command, args, { stream: options.stream })) as T;
    } catch (error) {
      if (!(error instanceof NoServerError)) throw error;
    }
    try {
      return await here();
    } catch (error) {
      if ((error as Error).name !== 'DataDirInUseError' || Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

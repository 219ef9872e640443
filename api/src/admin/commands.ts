import { createLocalAccount } from '../auth/accounts.ts';
import { recordAudit } from '../auth/audit.ts';
import type { Services } from '../context.ts';
import { AdminCommandError, type AdminCommand } from '../infra/admin-socket.ts';
import { snapshotEmbedded } from '../infra/backup.ts';
import type { Database } from '../infra/db/database.ts';
import { jobsAdminCommands } from '../infra/jobs/admin.ts';
import { DomainError } from '../shared/errors.ts';
import { setAdministratorByEmail } from './rules.ts';

/**
 * What command-line tools may ask the running server to do over its admin socket (see
 * infra/admin-socket.ts). Each command calls the same domain code the tool runs when no server is
 * running, so the rules live once. Add a tool's command here.
 */
export function adminCommands(services: Services, database: Database): Record<string, AdminCommand> {
  const { config, db } = services;
  return {
    ping: async () => ({ pid: process.pid }),
    // `pnpm jobs`: queue counts and failures, and retrying failed jobs.
    ...jobsAdminCommands(services.jobs),
    'user:create': (args) =>
      domainErrorsAsMessages(async () => {
        const user = await createUserAsAdmin(db, config, {
          email: String(args.email ?? ''),
          password: String(args.password ?? ''),
          name: String(args.name ?? ''),
          admin: args.admin === true,
        });
        return { id: user.id, email: user.email, isAdmin: user.isAdmin };
      }),
    // `pnpm user:admin --email E [--revoke]`
    'user:admin': (args) =>
      domainErrorsAsMessages(() => setAdministratorByEmail(db, String(args.email ?? ''), args.revoke !== true)),
    // `pnpm backup`: the database and objects at one moment, in a folder the tool zips and removes.
    'backup:snapshot': async () => {
      if (!database.pglite) throw new AdminCommandError('This server does not run the embedded database.');
      return { dir: await snapshotEmbedded(database.pglite, config) };
    },
  };
}

/**
 * `pnpm user:create`: a local account even when open sign-up is off; with `admin`, an
 * administrator (`--admin`), which the audit log records.
 */
export async function createUserAsAdmin(
  db: Services['db'],
  config: Services['config'],
  input: { email: string; password: string; name: string; admin?: boolean },
) {
  const { admin, ...account } = input;
  const user = await createLocalAccount(
    db,
    { allowSignup: config.auth.allowSignup, scryptCost: config.auth.scryptCost },
    account,
    { bypassSignupSetting: true, admin: admin === true },
  );
  if (user.isAdmin) {
    await recordAudit(db, {
      action: 'admin_granted',
      subject: { id: user.id, email: user.email },
      metadata: { via: 'command line' },
    });
  }
  return user;
}

async function domainErrorsAsMessages<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError) throw new AdminCommandError(error.message);
    throw error;
  }
}

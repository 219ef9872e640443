// pnpm user:admin --email E [--revoke]
// Makes an account an administrator of the instance, or (--revoke) no longer one; the last
// administrator stays one. With the embedded database and a server running on the same DATA_DIR,
// the server makes the change (over its admin socket): only the process holding the database may
// write to it.
import { parseArgs } from 'node:util';
import { setAdministratorByEmail } from '../src/admin/rules.ts';
import { readConfig } from '../src/config.ts';
import { askServerOrRunHere } from '../src/infra/admin-socket.ts';
import { openDatabase } from '../src/infra/db/database.ts';
import { DomainError } from '../src/shared/errors.ts';
import { exitOnKnownError } from './cli.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, revoke: { type: 'boolean', default: false } },
  strict: true,
});
if (!values.email) {
  console.error('usage: pnpm user:admin --email E [--revoke]');
  process.exit(2);
}
const input = { email: values.email, revoke: values.revoke };

try {
  const config = readConfig(process.env);
  const here = async () => {
    const db = await openDatabase(config.database, {
      migrate: config.migrateOnStart || config.database.kind === 'embedded',
    });
    try {
      return await setAdministratorByEmail(db.prisma, input.email, !input.revoke);
    } finally {
      await db.close();
    }
  };
  const result =
    config.database.kind === 'embedded'
      ? await askServerOrRunHere<Awaited<ReturnType<typeof here>>>(config.dataDir, 'user:admin', input, here)
      : await here();
  const role = result.isAdmin ? 'an administrator' : 'not an administrator';
  console.log(`${result.email} is ${result.changed ? 'now' : 'already'} ${role}.`);
} catch (error) {
  exitOnKnownError(error, [DomainError]);
}

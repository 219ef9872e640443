// pnpm user:create --email E --password P --name "First Last" [--admin]
// Creates a local account even when open sign-up is turned off (for administrators and scripts);
// with --admin, an administrator of the instance (the first account of an instance is one anyway).
// With the embedded database and a server running on the same DATA_DIR, the server creates it (over
// its admin socket): only the process holding the database may write to it.
import { parseArgs } from 'node:util';
import { createUserAsAdmin } from '../src/admin/commands.ts';
import { DomainError } from '../src/shared/errors.ts';
import { runAccountCommand } from './account-command.ts';
import { exitOnKnownError } from './cli.ts';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    admin: { type: 'boolean', default: false },
  },
  strict: true,
});
if (!values.email || !values.password || !values.name) {
  console.error('usage: pnpm user:create --email E --password P --name "First Last" [--admin]');
  process.exit(2);
}
const input = { email: values.email, password: values.password, name: values.name, admin: values.admin };

try {
  const user = await runAccountCommand<{ id: string; email: string; isAdmin: boolean }>(
    'user:create',
    input,
    (prisma, config) => createUserAsAdmin(prisma, config, input),
  );
  console.log(`Created ${user.email} (${user.id})${user.isAdmin ? ', an administrator' : ''}`);
} catch (error) {
  exitOnKnownError(error, [DomainError]);
}

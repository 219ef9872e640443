// pnpm user:admin --email E [--revoke]
// Makes an account an administrator of the instance, or (--revoke) no longer one; the last
// administrator stays one. With the embedded database and a server running on the same DATA_DIR,
// the server makes the change (over its admin socket): only the process holding the database may
// write to it.
import { parseArgs } from 'node:util';
import { setAdministratorByEmail } from '../src/admin/rules.ts';
import { DomainError } from '../src/shared/errors.ts';
import { runAccountCommand } from './account-command.ts';
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
  const result = await runAccountCommand('user:admin', input, (prisma) =>
    setAdministratorByEmail(prisma, input.email, !input.revoke),
  );
  const role = result.isAdmin ? 'an administrator' : 'not an administrator';
  console.log(`${result.email} is ${result.changed ? 'now' : 'already'} ${role}.`);
} catch (error) {
  exitOnKnownError(error, [DomainError]);
}

// pnpm user:create --email E --password P --name "First Last"
// Creates a local account even when open sign-up is turned off (for administrators and scripts).
import { parseArgs } from 'node:util';
import { createLocalAccount } from '../src/auth/accounts.ts';
import { ConfigError, readConfig } from '../src/config.ts';
import { openDatabase } from '../src/infra/db/database.ts';
import { DomainError } from '../src/shared/errors.ts';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  strict: true,
});
if (!values.email || !values.password || !values.name) {
  console.error('usage: pnpm user:create --email E --password P --name "First Last"');
  process.exit(2);
}

try {
  const config = readConfig(process.env);
  const db = await openDatabase(config.database, {
    migrate: config.migrateOnStart || config.database.kind === 'embedded',
  });
  try {
    const user = await createLocalAccount(
      db.prisma,
      { allowSignup: config.auth.allowSignup, scryptCost: config.auth.scryptCost },
      { email: values.email, password: values.password, name: values.name },
      { bypassSignupSetting: true },
    );
    console.log(`Created ${user.email} (${user.id})`);
  } finally {
    await db.close();
  }
} catch (error) {
  if (error instanceof DomainError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

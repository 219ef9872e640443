// `prisma generate` without the internet: the CLI insists on a schema-engine binary path even
// though generate never runs it, so we point it at a harmless one.
import { spawnSync } from 'node:child_process';

const result = spawnSync('prisma', ['generate', '--schema', '../prisma/schema.prisma'], {
  stdio: 'inherit',
  shell: false,
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? '/bin/false',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);

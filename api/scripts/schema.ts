// pnpm schema:print writes ../schema.graphql from the code; schema:check fails when it is stale.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { printedSchema } from '../src/graphql/schema.ts';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema.graphql');
const printed = printedSchema();
if (process.argv[2] === 'check') {
  const committed = await readFile(file, 'utf8').catch(() => '');
  if (committed !== printed) {
    console.error('schema.graphql is out of date with the code. Run `pnpm schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema.graphql matches the code.');
} else {
  await writeFile(file, printed);
  console.log(`Wrote ${file}`);
}

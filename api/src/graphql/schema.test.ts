import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { printedSchema } from './schema.ts';

it('matches the committed schema.graphql (run `pnpm schema:print` after changing types)', async () => {
  const committed = await readFile(new URL('../../../schema.graphql', import.meta.url), 'utf8');
  expect(printedSchema()).toBe(committed);
});

it('offers Relay object identification', () => {
  const printed = printedSchema();
  expect(printed).toContain('interface Node');
  expect(printed).toMatch(/node\(id: ID!\): Node/);
  expect(printed).toMatch(/nodes\(ids: \[ID!\]!\): \[Node\]!/);
});

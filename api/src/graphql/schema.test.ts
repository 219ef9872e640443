import { readFile } from 'node:fs/promises';
import { decodeGlobalID } from '@pothos/plugin-relay';
import { type GraphQLObjectType, isObjectType } from 'graphql';
import { expect, it } from 'vitest';
import { printedSchema, schema } from './schema.ts';

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

it("answers every node's id synchronously (graphql-js would otherwise wait on each object of a list)", () => {
  const nodes = Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType => isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node'),
  );
  expect(nodes.length).toBeGreaterThan(5);
  for (const type of nodes) {
    // (ProjectMember's id is made of two columns; the others' is the row's id)
    const row = { id: 'row-1', projectId: 'p', userId: 'u' };
    const id = type.getFields().id?.resolve?.(row, {}, {}, { parentType: type } as never);
    expect(typeof id, type.name).toBe('string');
    expect(decodeGlobalID(id as string).typename).toBe(type.name);
  }
});

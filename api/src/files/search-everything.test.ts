import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql } from '../../test/harness.ts';
import { makeGallery, shareWith } from '../galleries/testing.ts';
import { newFolder } from './testing.ts';

// The search results page (/files?search=…) lists galleries and folders beside files (issue 53):
// the galleries by the fields the search box names, the folders by name, each only what the
// viewer may see.

let app: TestApp, owner: User, member: User, stranger: User;
beforeAll(async () => {
  [app, owner, member, stranger] = await appWithPeople(anyone, anyone, anyone);
});
afterAll(() => app.close());

const SEARCH = `query($q: String!) {
  galleries(search: $q, first: 20) { edges { node { name } } }
  searchFolders(query: $q, first: 20) { edges { node { name path { name } } } }
}`;

async function search(user: User, q: string) {
  const result = await graphql<{
    galleries: { edges: { node: { name: string } }[] };
    searchFolders: { edges: { node: { name: string; path: { name: string }[] } }[] };
  }>(app, user.cookie, SEARCH, { q });
  expect(result.errors).toBeUndefined();
  return {
    galleries: result.data!.galleries.edges.map((e) => e.node.name).sort(),
    folders: result.data!.searchFolders.edges.map((e) => [...e.node.path.map((p) => p.name), e.node.name].join(' > ')),
  };
}

describe('searching galleries and folders', () => {
  it('finds galleries by name, description, show, location and tags, and only those the viewer may see', async () => {
    await makeGallery(app, owner.cookie, { name: 'Quayside lofts' });
    await makeGallery(app, owner.cookie, { name: 'North barn', description: 'Old quayside warehouse' });
    await makeGallery(app, owner.cookie, { name: 'Show set', movieTvShow: 'The Quayside Murders' });
    await makeGallery(app, owner.cookie, { name: 'Docks', location: 'Quayside, Bristol' });
    await makeGallery(app, owner.cookie, { name: 'Tagged', tags: 'QUAYSIDE-night, brick' });
    await makeGallery(app, owner.cookie, { name: 'Unrelated', description: 'fields' });
    const secret = await makeGallery(app, stranger.cookie, { name: 'Quayside secret' });

    expect((await search(owner, 'quayside')).galleries).toEqual([
      'Docks',
      'North barn',
      'Quayside lofts',
      'Show set',
      'Tagged',
    ]);
    // Another person's private gallery is not found, by them it is.
    expect((await search(owner, 'secret')).galleries).toEqual([]);
    expect((await search(member, 'quayside')).galleries).toEqual([]);
    expect((await search(stranger, 'quayside')).galleries).toEqual(['Quayside secret']);
    // Shared with a project the member is in: found by the member too.
    await shareWith(app, stranger, member, secret.id, 'read');
    expect((await search(member, 'quayside')).galleries).toEqual(['Quayside secret']);
    expect((await search(owner, 'quayside')).galleries).not.toContain('Quayside secret');
  });

  it("finds the viewer's own folders by name, with where they are, and never someone else's", async () => {
    const top = await newFolder(app, owner.cookie, 'Harbour scouting');
    await newFolder(app, owner.cookie, 'Day 2 harbour', top.id);
    await newFolder(app, owner.cookie, 'Inland');
    await newFolder(app, stranger.cookie, 'Harbour private');
    expect((await search(owner, 'harbour')).folders).toEqual(['Harbour scouting > Day 2 harbour', 'Harbour scouting']);
    expect((await search(owner, 'HARB')).folders).toHaveLength(2);
    expect((await search(member, 'harbour')).folders).toEqual([]);
    expect((await search(stranger, 'harbour')).folders).toEqual(['Harbour private']);
    // LIKE's wildcards are text.
    expect((await search(owner, 'har%')).folders).toEqual([]);
  });

  it('refuses a query of fewer than 3 characters for folders with the message files give', async () => {
    const result = await graphql(
      app,
      owner.cookie,
      `query { searchFolders(query: " ab ", first: 5) { edges { node { name } } } }`,
    );
    expect(result.errors?.[0]?.message).toBe('Search query must be longer than 2 characters.');
  });
});

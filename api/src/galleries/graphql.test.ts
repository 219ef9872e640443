import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser as User, TestApp } from '../../test/harness.ts';
import { anyone, appWithPeople, graphql, signedInUser } from '../../test/harness.ts';
import { countStatements as countQueries } from '../../test/statements.ts';
import { call, makeFile, makeGallery, shareWith } from './testing.ts';

let app: TestApp, owner: User, member: User, stranger: User;
beforeAll(async () => {
  [app, owner, member, stranger] = await appWithPeople(anyone, anyone, anyone);
});
afterAll(() => app.close());

const LIST = `query List($search: String, $sort: GallerySort) {
  galleries(first: 50, search: $search, sort: $sort) {
    totalCount
    edges { node { id name tags photoCount coverImageUrl coverImage { name } viewerAccess owner { displayName }
      shares { permission project { name type } } } }
  }
}`;

describe('galleries over GraphQL', () => {
  it('lists 24 galleries with cover, tags, photo count and shares in as many queries as 2', async () => {
    const few = await signedInUser(app);
    const many = await signedInUser(app);
    const arrange = async (user: User, n: number) => {
      for (let i = 0; i < n; i++) {
        const g = await makeGallery(app, user.cookie, { name: `G${i}`, tags: `t${i},shared` });
        const files = [await makeFile(app, user.id, `a${i}.jpg`), await makeFile(app, user.id, `b${i}.jpg`)];
        await call(app, user.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: files.map((f) => f.id) });
        await call(app, user.cookie, 'PATCH', `/api/galleries/${g.id}`, { coverImageId: files[0]?.id });
        if (i < 3) await shareWith(app, user, member, g.id);
      }
    };
    await arrange(few, 2);
    await arrange(many, 24);

    let fewResult: Awaited<ReturnType<typeof graphql>> | undefined;
    let manyResult: Awaited<ReturnType<typeof graphql>> | undefined;
    const fewQueries = await countQueries(async () => {
      fewResult = await graphql(app, few.cookie, LIST);
    });
    const manyQueries = await countQueries(async () => {
      manyResult = await graphql(app, many.cookie, LIST);
    });
    expect(fewResult?.errors).toBeUndefined();
    expect(manyResult?.errors).toBeUndefined();
    const data = manyResult?.data as { galleries: { totalCount: number; edges: { node: Record<string, unknown> }[] } };
    expect(data.galleries.totalCount).toBe(24);
    expect(data.galleries.edges).toHaveLength(24);
    const newest = data.galleries.edges[0]?.node;
    expect(newest).toMatchObject({ name: 'G23', tags: ['t23', 'shared'], photoCount: 2, viewerAccess: 'owner' });
    expect(newest?.coverImageUrl).toMatch(/^\/objects\/uploads\//);
    expect(newest?.coverImage).toEqual({ name: 'a23.jpg' });
    const shared = data.galleries.edges.find((e) => e.node.name === 'G0')?.node;
    expect(shared?.shares).toEqual([{ permission: 'read', project: { name: 'Night Shift', type: 'campaign' } }]);
    expect(fewQueries).toBeGreaterThan(0);
    expect(manyQueries).toBe(fewQueries);
  });

  it('searches, sorts and pages with cursors', async () => {
    const user = await signedInUser(app);
    for (const name of ['Echo', 'Alpha', 'Delta', 'Bravo', 'Charlie'])
      await makeGallery(app, user.cookie, { name, location: null });
    const searched = await graphql<{ galleries: { edges: { node: { name: string } }[] } }>(app, user.cookie, LIST, {
      search: 'HARL',
    });
    expect(searched.data?.galleries.edges.map((e) => e.node.name)).toEqual(['Charlie']);
  });

  it('answers typed errors with the spec messages', async () => {
    const { data } = await graphql<{ createGallery: { __typename: string; message: string; field: string } }>(
      app,
      owner.cookie,
      `mutation { createGallery(name: "   ") { __typename ... on ValidationError { message field } } }`,
    );
    expect(data?.createGallery).toEqual({
      __typename: 'ValidationError',
      message: 'Gallery name is required.',
      field: 'name',
    });
    const g = await makeGallery(app, owner.cookie);
    const share = await graphql<{ shareGallery: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { shareGallery(galleryId: $id) { __typename ... on Error { message } } }`,
      { id: g.id },
    );
    expect(share.data?.shareGallery).toEqual({
      __typename: 'ValidationError',
      message: 'Please select a project to share with.',
    });
    const project = await graphql<{ createProject: { __typename: string; message: string } }>(
      app,
      owner.cookie,
      `mutation { createProject(name: "") { __typename ... on Error { message } } }`,
    );
    expect(project.data?.createProject).toEqual({
      __typename: 'ValidationError',
      message: 'Project name is required.',
    });
  });

  it('creates, fills, shares and revokes through mutations; strangers reach nothing by node id', async () => {
    type Ok<T> = { __typename: string; data: T; message?: string };
    const created = await graphql<{ createGallery: Ok<{ id: string; status: string; tags: string[] }> }>(
      app,
      owner.cookie,
      `mutation { createGallery(name: "Pier", tags: ["a, b", " c"], propertyType: outdoor, style: rustic) {
         __typename ... on MutationCreateGallerySuccess { data { id status tags } } } }`,
    );
    const gallery = created.data?.createGallery.data;
    expect(gallery).toMatchObject({ status: 'active', tags: ['a', 'b', 'c'] });
    const galleryId = gallery?.id as string;

    const files = [await makeFile(app, owner.id, 'one.jpg'), await makeFile(app, owner.id, 'two.jpg')];
    const added = await graphql<{
      addFilesToGallery: Ok<{
        photoCount: number;
        items: { edges: { node: { name: string; url: string; file: unknown } }[] };
      }>;
    }>(
      app,
      owner.cookie,
      `mutation($g: ID!, $f: [ID!]!) { addFilesToGallery(galleryId: $g, fileIds: $f) {
         __typename ... on MutationAddFilesToGallerySuccess { data { photoCount items(first: 10) { edges { node { name url file { name size } } } } } } } }`,
      { g: galleryId, f: files.map((f) => f.id) },
    );
    expect(added.data?.addFilesToGallery.data.photoCount).toBe(2);
    expect(added.data?.addFilesToGallery.data.items.edges.map((e) => e.node.name)).toEqual(['one.jpg', 'two.jpg']);
    expect(added.data?.addFilesToGallery.data.items.edges[0]?.node).toMatchObject({
      file: { name: 'one.jpg', size: 1024 },
    });

    const projectResult = await graphql<{ createProject: Ok<{ id: string; viewerRole: string; memberCount: number }> }>(
      app,
      owner.cookie,
      `mutation { createProject(name: "Harbour film", type: movie) { __typename ... on MutationCreateProjectSuccess { data { id viewerRole memberCount } } } }`,
    );
    const project = projectResult.data?.createProject.data;
    expect(project).toMatchObject({ viewerRole: 'owner', memberCount: 1 });
    const invited = await graphql<{ inviteToProject: Ok<{ id: string; email: string; role: string }> }>(
      app,
      owner.cookie,
      `mutation($p: ID!, $e: String!) { inviteToProject(projectId: $p, email: $e) { __typename ... on MutationInviteToProjectSuccess { data { id email role } } ... on Error { message } } }`,
      { p: project?.id, e: member.email },
    );
    expect(invited.data?.inviteToProject).toMatchObject({ data: { email: member.email, role: 'member' } });
    const accepted = await graphql<{ acceptInvitation: { __typename: string } }>(
      app,
      member.cookie,
      `mutation($id: ID!) { acceptInvitation(id: $id) { __typename } }`,
      { id: invited.data?.inviteToProject.data.id },
    );
    expect(accepted.data?.acceptInvitation.__typename).toBe('MutationAcceptInvitationSuccess');

    const shared = await graphql<{ shareGallery: Ok<{ id: string; permission: string; project: { name: string } }> }>(
      app,
      owner.cookie,
      `mutation($g: ID!, $p: ID!) { shareGallery(galleryId: $g, projectId: $p, permission: write) {
         __typename ... on MutationShareGallerySuccess { data { id permission project { name } } } } }`,
      { g: galleryId, p: project?.id },
    );
    const share = shared.data?.shareGallery.data;
    expect(share).toMatchObject({ permission: 'write', project: { name: 'Harbour film' } });

    const NODE = `query($id: ID!) { node(id: $id) { __typename ... on Gallery { name viewerAccess } } }`;
    expect((await graphql(app, member.cookie, NODE, { id: galleryId })).data).toEqual({
      node: { __typename: 'Gallery', name: 'Pier', viewerAccess: 'write' },
    });
    expect((await graphql(app, stranger.cookie, NODE, { id: galleryId })).data).toEqual({ node: null });
    expect(
      (await graphql(app, stranger.cookie, `query($id: ID!) { node(id: $id) { id } }`, { id: share?.id })).data,
    ).toEqual({ node: null });
    expect(
      (await graphql<{ projects: { totalCount: number } }>(app, stranger.cookie, '{ projects { totalCount } }')).data
        ?.projects.totalCount,
    ).toBe(0);

    const strangerRevoke = await graphql<{ revokeGalleryShare: { __typename: string; message: string } }>(
      app,
      stranger.cookie,
      `mutation($id: ID!) { revokeGalleryShare(id: $id) { __typename ... on Error { message } } }`,
      { id: share?.id },
    );
    expect(strangerRevoke.data?.revokeGalleryShare).toEqual({ __typename: 'BaseError', message: 'Share not found' });
    await graphql(app, owner.cookie, `mutation($id: ID!) { revokeGalleryShare(id: $id) { __typename } }`, {
      id: share?.id,
    });
    expect((await graphql(app, member.cookie, NODE, { id: galleryId })).data).toEqual({ node: null });

    const deleted = await graphql<{ deleteGallery: Ok<string> }>(
      app,
      owner.cookie,
      `mutation($id: ID!) { deleteGallery(id: $id) { __typename ... on MutationDeleteGallerySuccess { data } } }`,
      { id: galleryId },
    );
    expect(deleted.data?.deleteGallery.data).toBe(galleryId);
  });

  // The screens show only what the viewer may do; these flags come from the API's one access rule.
  it('tells each viewer what they may do: the owner all, an edit member edit only, a viewer nothing', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Rights' });
    const reader = await signedInUser(app);
    await shareWith(app, owner, member, g.id, 'write');
    await shareWith(app, owner, reader, g.id, 'read');
    const id = encodeGlobalID('Gallery', g.id);
    const may = async (user: User, query: string) => {
      const { data, errors } = await graphql<Record<string, unknown>>(app, user.cookie, query, { id });
      expect(errors).toBeUndefined();
      return data;
    };
    const fields = 'viewerCanEdit viewerCanShare viewerCanDelete';
    const expected = new Map([
      [owner, { viewerCanEdit: true, viewerCanShare: true, viewerCanDelete: true }],
      [member, { viewerCanEdit: true, viewerCanShare: false, viewerCanDelete: false }],
      [reader, { viewerCanEdit: false, viewerCanShare: false, viewerCanDelete: false }],
    ]);
    for (const [user, flags] of expected) {
      expect(await may(user, `query($id: ID!) { node(id: $id) { ... on Gallery { ${fields} } } }`)).toEqual({
        node: flags,
      });
      // The galleries screen's cards (one hand-written statement) answer the same.
      const list = (await may(
        user,
        `query { galleries(first: 100, search: "Rights") { edges { node { name ${fields} } } } }`,
      )) as {
        galleries: { edges: { node: object }[] };
      };
      expect(list.galleries.edges.map((e) => e.node)).toEqual([{ name: 'Rights', ...flags }]);
    }
  });

  it('edits the cover, reorders and removes photos through mutations', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Order' });
    const [a, b, c] = [
      await makeFile(app, owner.id, 'a.jpg'),
      await makeFile(app, owner.id, 'b.jpg'),
      await makeFile(app, owner.id, 'c.jpg'),
    ];
    await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [a.id, b.id, c.id] });
    const fileId = (id: string) => encodeGlobalID('File', id);
    const cover = await graphql<{
      updateGallery: { data: { coverImageUrl: string; coverImageId: string; notes: string } };
    }>(
      app,
      owner.cookie,
      `mutation($id: ID!, $cover: ID) { updateGallery(id: $id, coverImageId: $cover, notes: "Side door") {
         ... on MutationUpdateGallerySuccess { data { coverImageUrl coverImageId notes } } } }`,
      { id: encodeGlobalID('Gallery', g.id), cover: fileId(b.id) },
    );
    expect(cover.data?.updateGallery.data).toEqual({
      coverImageUrl: b.objectPath,
      coverImageId: fileId(b.id),
      notes: 'Side door',
    });
    await graphql(
      app,
      owner.cookie,
      `mutation($g: ID!, $f: ID!, $before: ID) { moveGalleryItem(galleryId: $g, fileId: $f, beforeFileId: $before) { __typename } }`,
      { g: g.id, f: fileId(c.id), before: fileId(a.id) },
    );
    const removed = await graphql<{
      removeFileFromGallery: {
        data: { photoCount: number; coverImageUrl: string | null; items: { edges: { node: { name: string } }[] } };
      };
    }>(
      app,
      owner.cookie,
      `mutation($g: ID!, $f: ID!) { removeFileFromGallery(galleryId: $g, fileId: $f) {
         ... on MutationRemoveFileFromGallerySuccess { data { photoCount coverImageUrl items(first: 5) { edges { node { name } } } } } } }`,
      { g: g.id, f: fileId(b.id) },
    );
    expect(removed.data?.removeFileFromGallery.data).toEqual({
      photoCount: 2,
      coverImageUrl: null,
      items: { edges: [{ node: { name: 'c.jpg' } }, { node: { name: 'a.jpg' } }] },
    });
  });

  it('refuses every gallery and project mutation to a stranger, changing nothing', async () => {
    const g = await makeGallery(app, owner.cookie, { name: 'Guarded' });
    const file = await makeFile(app, owner.id, 'kept.jpg');
    await call(app, owner.cookie, 'POST', `/api/galleries/${g.id}/items`, { fileIds: [file.id] });
    const { project, share } = await shareWith(app, owner, member, g.id);
    const theirs = await makeFile(app, stranger.id, 'theirs.jpg');
    const mutations: [string, Record<string, unknown>][] = [
      ['updateGallery(id: $g, name: "Mine")', {}],
      ['deleteGallery(id: $g)', {}],
      ['addFilesToGallery(galleryId: $g, fileIds: [$x])', { x: theirs.id }],
      ['removeFileFromGallery(galleryId: $g, fileId: $f)', {}],
      ['moveGalleryItem(galleryId: $g, fileId: $f)', {}],
      ['shareGallery(galleryId: $g, projectId: $p, permission: write)', {}],
      ['revokeGalleryShare(id: $s)', {}],
      ['inviteToProject(projectId: $p, email: $email)', {}],
      ['removeProjectMember(projectId: $p, userId: $m)', {}],
    ];
    for (const [call_, extra] of mutations) {
      const names = [...call_.matchAll(/\$(\w+)/g)].map((m) => m[1] as string);
      const all: Record<string, unknown> = {
        g: g.id,
        f: file.id,
        p: project.id,
        s: share.id,
        email: stranger.email,
        m: member.id,
        ...extra,
      };
      const decl = names.map((n) => `$${n}: ${n === 'email' ? 'String!' : 'ID!'}`).join(', ');
      const { data, errors } = await graphql<Record<string, { __typename: string; message: string }>>(
        app,
        stranger.cookie,
        `mutation(${decl}) { result: ${call_} { __typename ... on Error { message } } }`,
        Object.fromEntries(names.map((n) => [n, all[n]])),
      );
      expect(errors, call_).toBeUndefined();
      expect(data?.result?.__typename, call_).toBe('BaseError');
      expect(data?.result?.message, call_).toMatch(/not found$/);
    }
    const after = await app.database.prisma.gallery.findUniqueOrThrow({
      where: { id: g.id },
      include: { items: true, shares: true },
    });
    expect(after.name).toBe('Guarded');
    expect(after.items.map((i) => i.fileId)).toEqual([file.id]);
    expect(after.shares.map((s) => s.permission)).toEqual(['read']);
    expect(await app.database.prisma.projectMember.count({ where: { projectId: project.id } })).toBe(2);
  });
});

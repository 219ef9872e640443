import { commitMutation, fetchQuery } from 'react-relay/hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ProjectsScreen from '../screens/projects/__generated__/ProjectsScreenQuery.graphql.ts';
import DeleteTask from '../screens/tasks/__generated__/TasksScreenDeleteMutation.graphql.ts';
import { createEnvironment } from './environment.ts';

afterEach(() => vi.unstubAllGlobals());

const answer = (viewerId: string) =>
  new Response(JSON.stringify({ data: { viewer: { id: viewerId }, invitationsForMe: [], projects: null } }));

describe('a screen read again while this page changes something', () => {
  it('asks again when a mutation was answered while the read was on its way: the read may predate it', async () => {
    let releaseFirst: (response: Response) => void = () => {};
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body)) as { doc_id: string };
        const kind = body.doc_id === ProjectsScreen.params.id ? 'read' : 'mutation';
        asked.push(kind);
        if (kind === 'mutation') return new Response('{"data":{"deleteTask":null}}');
        if (asked.filter((k) => k === 'read').length === 1) {
          return new Promise<Response>((resolve) => {
            releaseFirst = resolve;
          });
        }
        return answer('fresh');
      }),
    );
    const environment = createEnvironment();
    const read = fetchQuery(environment, ProjectsScreen, {}).toPromise();
    await vi.waitFor(() => expect(asked).toEqual(['read']));
    await new Promise((resolve) =>
      commitMutation(environment, {
        mutation: DeleteTask,
        variables: { id: 'VGFzazox' },
        onCompleted: resolve,
        onError: resolve,
      }),
    );
    releaseFirst(answer('stale'));
    const data = (await read) as { viewer: { id: string } };
    expect(asked).toEqual(['read', 'mutation', 'read']);
    expect(data.viewer.id).toBe('fresh');
  });

  it('takes the answer as it is when no mutation was answered meanwhile', async () => {
    const fetch = vi.fn(async () => answer('only'));
    vi.stubGlobal('fetch', fetch);
    const data = (await fetchQuery(createEnvironment(), ProjectsScreen, {}).toPromise()) as { viewer: { id: string } };
    expect(data.viewer.id).toBe('only');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

import { render } from '@testing-library/react';
import { RelayEnvironmentProvider } from 'react-relay/hooks';
import { type GraphQLResponse, Observable, RecordSource } from 'relay-runtime';
import { afterEach, expect, it, vi } from 'vitest';
import { createEnvironment } from '../relay/environment.ts';
import { ProcessedPictures } from './useProcessedPictures.ts';

afterEach(() => vi.unstubAllGlobals());

it('reads again the files the store holds as processing when the subscription opens', async () => {
  let live: { next: (response: GraphQLResponse) => void } | undefined;
  const environment = createEnvironment(() =>
    Observable.create<GraphQLResponse>((sink) => {
      live = sink;
    }),
  );
  const file = (id: string, fields: Record<string, unknown>) => ({ __id: id, __typename: 'File', id, ...fields });
  environment.getStore().publish(
    new RecordSource({
      RmlsZTox: file('RmlsZTox', { processing: true, metadata: { processing: true } }),
      RmlsZToy: file('RmlsZToy', { processing: false, metadata: { thumbnails: { grid: true } } }),
      // A gallery's photo carries only its metadata.
      RmlsZToz: file('RmlsZToz', { metadata: { processing: true } }),
    }),
  );
  const asked: { ids: string[] }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      const { variables } = JSON.parse(String(init.body)) as { variables: { ids: string[] } };
      asked.push(variables);
      const nodes = variables.ids.map((id) => ({
        __typename: 'File',
        id,
        processing: false,
        metadata: { thumbnails: { grid: true } },
        thumbnailUrl: `/objects/uploads/${id}?variant=grid`,
      }));
      return new Response(JSON.stringify({ data: { nodes } }));
    }),
  );
  render(
    <RelayEnvironmentProvider environment={environment}>
      <ProcessedPictures />
    </RelayEnvironmentProvider>,
  );
  expect(asked).toEqual([]);
  live?.next({ data: { uploadProcessed: { uploadId: null, files: [] } } });
  await vi.waitFor(() => expect(asked).toEqual([{ ids: ['RmlsZTox', 'RmlsZToz'] }]));
  await vi.waitFor(() => expect(environment.getStore().getSource().get('RmlsZTox')?.processing).toBe(false));
  // A processed picture's own event carries its files: nothing is read again.
  live?.next({ data: { uploadProcessed: { uploadId: 'u2', files: [] } } });
  expect(asked).toHaveLength(1);
});

import { errorFromResponse } from '../lib/http.ts';
import { Environment, Network, RecordSource, Store, type FetchFunction } from 'relay-runtime';

const fetchGraphQL: FetchFunction = async (operation, variables) => {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: operation.text, variables }),
  });
  if (!response.ok) throw await errorFromResponse(response);
  return response.json();
};

export function createEnvironment() {
  return new Environment({ network: Network.create(fetchGraphQL), store: new Store(new RecordSource()) });
}

import { Environment, Network, RecordSource, Store, type FetchFunction } from 'relay-runtime';
import { errorFromResponse, isUnauthorizedError } from '../lib/http.ts';
import { handleUnauthorized } from '../lib/unauthorized.ts';
import { operationBody } from './persisted.ts';
import { subscribeOverSSE } from './sse.ts';

const fetchGraphQL: FetchFunction = async (operation, variables) => {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(operationBody(operation, variables)),
  });
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (isUnauthorizedError(error)) handleUnauthorized();
    throw error;
  }
  return response.json();
};

export function createEnvironment() {
  return new Environment({
    network: Network.create(fetchGraphQL, subscribeOverSSE),
    store: new Store(new RecordSource()),
  });
}

import {
  Environment,
  type FetchFunction,
  type GraphQLResponse,
  Network,
  RecordSource,
  Store,
  type SubscribeFunction,
} from 'relay-runtime';
import { errorFromResponse } from '../lib/http.ts';
import { isUnauthorizedError } from '../lib/unauthorized.ts';
import { handleUnauthorized } from '../lib/unauthorized.ts';
import { operationBody } from './persisted.ts';
import { forgetPrefetched, postGraphQL, takeCarried, takePrefetched } from './prefetch.ts';
import { subscribeLive } from './live.ts';

const fetchOverHttp: FetchFunction = async (operation, variables) => {
  const mutation = operation.operationKind === 'mutation';
  // Answers asked for before or while a mutation runs may predate its change: none is handed out.
  if (mutation) forgetPrefetched();
  const response = await ((operation.id && takePrefetched(operation.id, variables)) ||
    postGraphQL(operationBody(operation, variables)));
  if (mutation) forgetPrefetched();
  if (!response.ok) {
    const error = await errorFromResponse(response);
    if (isUnauthorizedError(error)) handleUnauthorized();
    throw error;
  }
  return response.json();
};

const fetchGraphQL: FetchFunction = (operation, variables, cacheConfig, uploadables) => {
  const carried =
    operation.operationKind === 'query' && operation.id ? takeCarried(operation.id, variables) : undefined;
  return carried === undefined
    ? fetchOverHttp(operation, variables, cacheConfig, uploadables)
    : (carried as GraphQLResponse);
};

/** `subscribe` is the live connection; unit tests, which have no server, hand in their own. */
export function createEnvironment(subscribe: SubscribeFunction = subscribeLive) {
  return new Environment({
    network: Network.create(fetchGraphQL, subscribe),
    store: new Store(new RecordSource()),
  });
}

let app: Environment | null = null;

/** The signed-in app's one store: the route loaders fill it and the shell's screens read it. */
export function appEnvironment(): Environment {
  app ??= createEnvironment();
  return app;
}

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
import { serverPage } from '../lib/serverPage.ts';
import { subscribeLive } from './live.ts';

// Mutations of this page answered so far. A read answered after one of them may have been made
// before its change, and written into the store it would undo what the mutation put there (a
// screen re-read on a live event while its person invites someone): such a read is made again.
let mutationsAnswered = 0;
const REREADS = 2;

const fetchOverHttp: FetchFunction = async (operation, variables) => {
  const mutation = operation.operationKind === 'mutation';
  // Answers asked for before or while a mutation runs may predate its change: none is handed out.
  if (mutation) forgetPrefetched();
  let asked = mutationsAnswered;
  let response = await ((operation.id && takePrefetched(operation.id, variables)) ||
    postGraphQL(operationBody(operation, variables)));
  if (mutation) {
    forgetPrefetched();
    mutationsAnswered += 1;
  }
  for (let again = 0; !mutation && response.ok && asked !== mutationsAnswered && again < REREADS; again++) {
    asked = mutationsAnswered;
    response = await postGraphQL(operationBody(operation, variables));
  }
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
  if (carried !== undefined) return carried as GraphQLResponse;
  // A render on the server has only what the page carries, and the page is then not rendered there.
  const page = serverPage();
  if (page) {
    page.missing.push(operation.name);
    return Promise.reject(new Error(`${operation.name} is not carried by the page`));
  }
  return fetchOverHttp(operation, variables, cacheConfig, uploadables);
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
  const page = serverPage();
  if (page) {
    page.environment ??= createEnvironment();
    return page.environment;
  }
  app ??= createEnvironment();
  return app;
}

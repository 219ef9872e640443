import type { RequestParameters, Variables } from 'relay-runtime';

/**
 * The compiler persists every operation (relay.config.json `persistConfig`), so the browser sends
 * only its id; a production server runs nothing else. Text is sent only for an operation that
 * was not persisted (tests that build one by hand).
 */
export function operationBody(operation: RequestParameters, variables: Variables) {
  return operation.id ? { doc_id: operation.id, variables } : { query: operation.text, variables };
}

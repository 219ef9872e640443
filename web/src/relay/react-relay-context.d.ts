// react-relay's context on its own: its package index would bring the legacy containers along
// (react-relay/hooks, which the app imports everywhere else, does not export the context).
declare module 'react-relay/ReactRelayContext' {
  import type { Context } from 'react';
  import type { RelayContext } from 'relay-runtime';

  const ReactRelayContext: Context<RelayContext | null>;
  export default ReactRelayContext;
}

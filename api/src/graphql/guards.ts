import { existsSync, readFileSync } from 'node:fs';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';
import { withoutSuggestions } from './errors.ts';

/**
 * Limits every operation must fit, persisted or not: deeper, costlier or wider operations than
 * the web app's own are refused before they run. The web app's largest operation stays well
 * inside them (test/hardening/production.test.ts runs each one).
 */
export const GRAPHQL_LIMITS = {
  maxDepth: 14,
  // armor's cost grows with depth (factor 1.5 a level); the file manager's query costs about 72,000.
  maxCost: 150_000,
  maxAliases: 15,
  maxTokens: 4_000,
  maxDirectives: 50,
};

/** The operations the web app was built with: id → text, written by relay-compiler. */
export function loadPersistedOperations(file: string): Map<string, string> {
  if (!existsSync(file)) return new Map();
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(parsed));
}

/** Relay sends `doc_id`; `documentId` and Apollo's hash are accepted too. */
function operationId(params: Record<string, unknown>): string | null {
  const extensions = params.extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined;
  const id = params.doc_id ?? params.documentId ?? params.id ?? extensions?.persistedQuery?.sha256Hash;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** What a client sends for one operation, on any transport (an HTTP body, a graphql-ws payload). */
export interface OperationParams {
  query?: string | null;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
  extensions?: Record<string, unknown> | null;
}

export type OperationRule = (params: OperationParams) => OperationParams;

/**
 * The persisted-operations rule, the one implementation every transport applies: production runs
 * only the operations the web app was built with, sent by id; elsewhere operation text is welcome
 * too (GraphiQL, tests). Returns the standard params with the operation's text; refusals are
 * GraphQL errors with a code, the same over HTTP, SSE and WebSocket.
 */
export function operationRule(config: Config, persisted: Map<string, string>): OperationRule {
  const production = config.env === 'production';
  const webAppOnly = 'Only the operations of the Scoutbase web app are accepted.';
  return (params) => {
    const { query, operationName, variables, extensions } = params;
    if (typeof query === 'string' && query.length > 0) {
      if (production) throw new GraphQLError(webAppOnly, { extensions: { code: 'PERSISTED_QUERY_ONLY' } });
      return params;
    }
    const id = operationId(params as Record<string, unknown>);
    if (!id) {
      if (production) throw new GraphQLError(webAppOnly, { extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED' } });
      // Outside production a request without an operation gets the transport's own answer
      // (over HTTP: 400 'Must provide query string.').
      return params;
    }
    const text = persisted.get(id);
    if (!text) {
      throw new GraphQLError('This operation is not known to the server. Reload the page to get the current app.', {
        extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
      });
    }
    return { query: text, operationName, variables, extensions };
  };
}

export function graphqlGuards(config: Config, rule: OperationRule): Plugin[] {
  const production = config.env === 'production';
  const plugins: Plugin[] = [
    {
      onParams({ params, setParams }) {
        setParams(rule(params as OperationParams) as typeof params);
      },
    },
    EnvelopArmorPlugin({
      maxDepth: { n: GRAPHQL_LIMITS.maxDepth, ignoreIntrospection: true },
      costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, ignoreIntrospection: true },
      maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
      maxTokens: { n: GRAPHQL_LIMITS.maxTokens },
      maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
      // Suggestions ("Did you mean …") would map the schema for someone without introspection.
      blockFieldSuggestion: { enabled: production },
    }) as Plugin,
  ];
  if (production) {
    plugins.push({
      onValidate({ addValidationRule }) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
        // Every other suggestion too ("Did you mean the enum value …?", "… the type …?").
        return ({ valid, result, setResult }) => {
          if (valid) return;
          setResult(
            result.map((e) =>
              /Did you mean/.test(e.message)
                ? new GraphQLError(withoutSuggestions(e.message), {
                    nodes: e.nodes,
                    source: e.source,
                    positions: e.positions,
                    path: e.path,
                    extensions: e.extensions,
                  })
                : e,
            ),
          );
        };
      },
    });
  }
  return plugins;
}

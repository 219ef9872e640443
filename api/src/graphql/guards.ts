import { existsSync, readFileSync } from 'node:fs';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.ts';

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

export function graphqlGuards(config: Config, persisted: Map<string, string>): Plugin[] {
  const production = config.env === 'production';
  const plugins: Plugin[] = [
    usePersistedOperations({
      getPersistedOperation: (id) => persisted.get(id) ?? null,
      // Outside production GraphiQL and tests send operation text; in production only the
      // operations the web app was built with run.
      allowArbitraryOperations: !production,
      extractPersistedOperationId: (params) => operationId(params as unknown as Record<string, unknown>),
      customErrors: {
        notFound: 'This operation is not known to the server. Reload the page to get the current app.',
        persistedQueryOnly: 'Only the operations of the Scoutbase web app are accepted.',
        keyNotFound: 'Only the operations of the Scoutbase web app are accepted.',
      },
    }) as Plugin,
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
      },
    });
  }
  return plugins;
}

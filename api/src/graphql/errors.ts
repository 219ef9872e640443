import { GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { DomainError, ValidationError } from '../shared/errors.ts';

/** What the error reports need from an operation's context (every transport puts it there). */
interface ErrorContext {
  requestId?: string;
  viewer?: { id: string } | null;
}

export const UNEXPECTED_ERROR = 'Unexpected error.';

/**
 * graphql-js's messages without their "Did you mean …?" hints: they name the schema's fields,
 * types and enum values to someone production gives no introspection (armor's own rule masks only
 * field suggestions, and only in validation, not in a variable's value).
 */
export function withoutSuggestions(message: string) {
  return message.replace(/\s*Did you mean [^?]*\?/g, '');
}

/**
 * Every error of every operation, on every transport (HTTP, SSE, WebSocket), goes through here:
 * - the caller's mistakes (an argument that breaks a rule, a malformed id or cursor) keep their
 *   message and say BAD_USER_INPUT, so a client can tell them from a failure of ours;
 * - a refusal of a domain rule keeps its message and its code (NOT_FOUND, FORBIDDEN, …);
 * - anything else is a failure of ours: logged with the request id and who asked, and answered
 *   masked ('Unexpected error.') with that request id, so support can find the log line.
 */
export function useErrorReports({ logger, production }: { logger: Logger; production: boolean }): Plugin {
  const report = (error: GraphQLError, context: ErrorContext): GraphQLError => {
    const original = error.originalError;
    // No original: graphql-js's own errors (validation, variables, a null in a non-null field).
    if (!original || original === error) return error;
    const options = { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path };
    if (original instanceof ValidationError) {
      const extensions = { code: 'BAD_USER_INPUT', ...(original.field ? { field: original.field } : {}) };
      return new GraphQLError(original.message, { ...options, extensions });
    }
    if (original instanceof DomainError) {
      return new GraphQLError(original.message, { ...options, extensions: { code: original.code } });
    }
    if (original instanceof GraphQLError) {
      // Errors raised as GraphQL errors on purpose; Pothos's argument checks (a negative `first`,
      // a cursor that is not one) carry no code: they are input errors.
      if (original.extensions?.code || original.name !== 'PothosValidationError') return error;
      return new GraphQLError(original.message, { ...options, extensions: { code: 'BAD_USER_INPUT' } });
    }
    const requestId = context.requestId;
    logger.error(
      { err: original, requestId, userId: context.viewer?.id, path: error.path?.join('.') },
      'graphql resolver failed',
    );
    return new GraphQLError(UNEXPECTED_ERROR, {
      ...options,
      extensions: {
        code: 'INTERNAL_SERVER_ERROR',
        requestId,
        // Outside production the cause helps whoever is developing; production never shows it.
        ...(production ? {} : { originalError: { message: original.message, stack: original.stack } }),
      },
    });
  };

  // graphql-js's own messages (a variable's value, validation) name the schema in their hints.
  const answered = (error: GraphQLError, context: ErrorContext): GraphQLError => {
    const reported = report(error, context);
    if (!production || !/Did you mean/.test(reported.message)) return reported;
    return new GraphQLError(withoutSuggestions(reported.message), {
      nodes: reported.nodes,
      source: reported.source,
      positions: reported.positions,
      path: reported.path,
      extensions: reported.extensions,
    });
  };

  const onDone =
    (context: ErrorContext) => (payload: Parameters<Parameters<typeof handleStreamOrSingleExecutionResult>[1]>[0]) => {
      const { result, setResult } = payload;
      if (!result.errors?.length) return;
      setResult({ ...result, errors: result.errors.map((e) => answered(e as GraphQLError, context)) });
    };

  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, onDone(args.contextValue as ErrorContext)),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) =>
        handleStreamOrSingleExecutionResult(payload, onDone(args.contextValue as ErrorContext)),
      onSubscribeError: ({ error, setError }) => {
        if (error instanceof GraphQLError) setError(answered(error, args.contextValue as ErrorContext));
      },
    }),
  };
}

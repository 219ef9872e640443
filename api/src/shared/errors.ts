// Failures the domains report on purpose. The REST adapters turn them into a status code and
// {message}; GraphQL returns them as typed errors. Anything else is a bug and becomes a 500.

export class DomainError extends Error {
  readonly status: number = 400;
  readonly code: string = 'BAD_REQUEST';
}

/** The base of a refusal with its own status and code, and the message it says when given none. */
export function domainError(status: number, code: string, defaultMessage?: string) {
  return class extends DomainError {
    override readonly status = status;
    override readonly code = code;
    constructor(message = defaultMessage) {
      super(message);
    }
  };
}

export class ValidationError extends DomainError {
  override readonly status = 400;
  override readonly code = 'VALIDATION';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  override readonly status = 401;
  override readonly code = 'UNAUTHENTICATED';
  constructor() {
    super('Unauthorized');
  }
}

export class ForbiddenError extends domainError(403, 'FORBIDDEN') {}

/** Also used for things that exist but the viewer may not see: never hint that they exist. */
export class NotFoundError extends DomainError {
  override readonly status = 404;
  override readonly code = 'NOT_FOUND';
  constructor(what = 'Resource') {
    super(`${what} not found`);
  }
}

export class ConflictError extends domainError(409, 'CONFLICT') {}

export class TooManyRequestsError extends DomainError {
  override readonly status = 429;
  override readonly code = 'TOO_MANY_REQUESTS';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

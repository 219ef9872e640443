import { signedInUser, type TestApp } from './harness.ts';

export type SignedInUser = Awaited<ReturnType<typeof signedInUser>>;

export interface AccessHarness {
  app: TestApp;
  /** Owns the resources a case arranges. */
  owner: SignedInUser;
  /** Signed in, but was given access to nothing of the owner's. */
  stranger: SignedInUser;
  /** Given nothing by the harness: a row that needs them shares with them itself (write access). */
  editor: SignedInUser;
  /** Likewise, for read access. */
  reader: SignedInUser;
}

/** Who makes a row's request: the stranger unless the row says otherwise. */
export type AccessRole = 'stranger' | 'editor' | 'reader' | 'owner' | 'anonymous';

export interface StrangerRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * One row of the authorization suite (api/test/authorization.test.ts). Every data route the app
 * registers must have at least one row, or the suite fails. Put a domain's rows in
 * api/src/<domain>/access.cases.ts as `export const accessCases: AccessCase[]`.
 */
export interface AccessCase {
  /** The route exactly as registered with Hono, e.g. 'DELETE /api/files/:id'. */
  route: string;
  name: string;
  /** Creates the owner's resources and returns the request the stranger will make. */
  arrange(t: AccessHarness): Promise<StrangerRequest>;
  /**
   * What the stranger must get: a 404 (never a hint the thing exists), a 403, a 4xx refusal,
   * or a 200 with an empty list / only their own data ('own-data-only' checks the response
   * mentions none of the owner's ids).
   */
  expect: 'not-found' | 'forbidden' | 'refused' | 'empty-list' | 'own-data-only' | 'allowed' | 'unauthorized';
  /**
   * Who asks (the stranger by default). Rows of the other roles pin down who may, as well as who
   * may not; 'anonymous' rows are for paths that answer without a session (review links), which
   * then skip the signed-out 401 every other row checks. 'allowed' is any 2xx; 'unauthorized' a
   * 401 with a message.
   */
  as?: AccessRole;
  /** Checks, after the stranger's request, that the owner's data did not change. */
  unchanged?(t: AccessHarness): Promise<void>;
}

/** The harness on `app`: four fresh people, signed up in the order owner, stranger, editor, reader. */
export async function accessHarness(app: TestApp): Promise<AccessHarness> {
  return {
    app,
    owner: await signedInUser(app),
    stranger: await signedInUser(app),
    editor: await signedInUser(app),
    reader: await signedInUser(app),
  };
}

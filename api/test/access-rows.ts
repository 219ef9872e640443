import type { AccessCase, AccessHarness, StrangerRequest } from './access.ts';

/**
 * One row of the authorization suite, as what the owner has, what the stranger asks for and what
 * must still hold after. The owner's things that `given` makes are handed to `asks` and to
 * `unchanged`, so a row checks the very records it arranged without a variable kept beside it.
 */
export interface AccessRow<Given> {
  /** The route exactly as registered with Hono; the stranger's request uses its method. */
  route: string;
  name: string;
  /** Makes what the stranger will go after (and anything of the stranger's own the request needs). */
  given?(t: AccessHarness): Promise<Given>;
  /** The stranger's request: a path, or a JSON body with its path; the path is the route's own unless given. */
  asks?(given: NoInfer<Given>, t: AccessHarness): string | { path?: string; body?: unknown };
  expect: AccessCase['expect'];
  as?: AccessCase['as'];
  unchanged?(t: AccessHarness, given: NoInfer<Given>): Promise<void>;
}

export function accessCase<Given = undefined>(row: AccessRow<Given>): AccessCase {
  const [method, routePath] = row.route.split(' ') as [StrangerRequest['method'], string];
  // Rows run one after another, so each row's arranged things live until its unchanged() has run.
  let given: Given;
  const { unchanged } = row;
  return {
    route: row.route,
    name: row.name,
    async arrange(t) {
      given = (await row.given?.(t)) as Given;
      const asked = row.asks?.(given, t) ?? {};
      const request = typeof asked === 'string' ? { method, path: asked } : { method, path: routePath, ...asked };
      if (request.path.includes('/:')) throw new Error(`${row.route}: asks() must fill in the route's parameters`);
      return request;
    },
    expect: row.expect,
    ...(row.as && { as: row.as }),
    ...(unchanged && { unchanged: (t: AccessHarness) => unchanged(t, given) }),
  };
}

/** What the stranger reads at `path` (JSON), to check afterwards that it is theirs and not the owner's. */
export async function strangersView(t: AccessHarness, path: string): Promise<unknown> {
  const response = await t.app.request(path, { cookie: t.stranger.cookie });
  return response.json();
}

import type { Context } from 'hono';
import { UnauthorizedError, ValidationError } from '../shared/errors.ts';
import type { AppEnv } from './env.ts';
import type { Services, ViewerContext } from '../context.ts';

export function requireViewer(c: Context<AppEnv>) {
  const viewer = c.get('viewer');
  if (!viewer) throw new UnauthorizedError();
  return viewer;
}

/** The domain context for a signed-in request. */
export function viewerContext(c: Context<AppEnv>, services: Services): ViewerContext {
  return { ...services, viewer: requireViewer(c) };
}

/** The JSON body of a request, or a 400 that says what is wrong with it. */
export async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    // A body that only says it is a form (a multipart one without its parts) is the caller's mistake.
    const form = await c.req.formData().catch(() => {
      throw new ValidationError('The request body is not valid form data.');
    });
    return Object.fromEntries(form.entries());
  }
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('The request body is not valid JSON.');
  }
}

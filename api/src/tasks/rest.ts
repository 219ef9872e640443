import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import { ValidationError } from '../shared/errors.ts';
import { completeTask, createTask, deleteTask, getTask, listTasks, reopenTask, updateTask } from './rules.ts';

function booleanQuery(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ValidationError(`${name} must be true or false.`, name);
}

export function taskRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  // ?status=pending|completed, ?overdue=true|false, ?sort=newest|dueDate (newest when absent)
  routes.get('/api/tasks', async (c) => {
    const status = c.req.query('status') || undefined;
    return c.json(
      await listTasks(
        viewerContext(c, services),
        {
          status: status as 'pending' | undefined,
          overdue: booleanQuery(c.req.query('overdue'), 'overdue'),
        },
        (c.req.query('sort') || undefined) as 'newest' | undefined,
      ),
    );
  });

  routes.post('/api/tasks', async (c) =>
    c.json(await createTask(viewerContext(c, services), (await readJson(c)) as never), 201),
  );

  routes.get('/api/tasks/:id', async (c) => c.json(await getTask(viewerContext(c, services), c.req.param('id'))));

  routes.patch('/api/tasks/:id', async (c) =>
    c.json(await updateTask(viewerContext(c, services), c.req.param('id'), (await readJson(c)) as never)),
  );

  routes.patch('/api/tasks/:id/complete', async (c) =>
    c.json(await completeTask(viewerContext(c, services), c.req.param('id'))),
  );

  routes.patch('/api/tasks/:id/reopen', async (c) =>
    c.json(await reopenTask(viewerContext(c, services), c.req.param('id'))),
  );

  routes.delete('/api/tasks/:id', async (c) => c.json(await deleteTask(viewerContext(c, services), c.req.param('id'))));

  return routes;
}

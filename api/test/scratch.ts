import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** Makes temporary folders (`scoutbase-<name>-…`) for one test file and removes them once its tests are done. */
export function scratchFolders(): (name: string) => Promise<string> {
  const made: string[] = [];
  afterAll(async () => {
    for (const dir of made) await rm(dir, { recursive: true, force: true });
  });
  return async (name) => {
    const dir = await mkdtemp(path.join(tmpdir(), `scoutbase-${name}-`));
    made.push(dir);
    return dir;
  };
}

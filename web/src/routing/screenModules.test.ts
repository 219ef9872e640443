import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCREEN_ROUTES, SIGNED_IN_MODULES, SIGNED_OUT_MODULES } from './screenModules.ts';

const web = path.resolve(import.meta.dirname, '../..');

describe('the screens the build names in the page', () => {
  it('are the modules the router loads for them', () => {
    const router = readFileSync(path.join(web, 'src/routes/signedIn.tsx'), 'utf8');
    for (const [name, { module }] of Object.entries(SCREEN_ROUTES)) {
      expect(router, name).toMatch(
        new RegExp(`${name}: loadOnce\\(\\(\\) => import\\('\\.\\./${module.slice('src/'.length)}'\\)\\)`),
      );
    }
  });

  it('name files that exist', () => {
    const modules = [...Object.values(SCREEN_ROUTES).map((r) => r.module), ...SIGNED_IN_MODULES, ...SIGNED_OUT_MODULES];
    for (const module of modules) expect(existsSync(path.join(web, module)), module).toBe(true);
  });
});

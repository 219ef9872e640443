import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// axe-core run inside the page (shell included); answers the serious and critical violations,
// one line each.

let source: string | undefined;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

export async function seriousViolations(page: Page): Promise<string[]> {
  source ??= await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: source });
  // Judge the page at rest: no element hovered by wherever the last click left the pointer, and
  // no colour mid-fade (running transitions jump to their end; endless ones, spinners, stay). The
  // projects test once failed in CI on a crew row's Remove button in dark mode, which neither a
  // hover nor a slowed transition reproduced here; this rules both out of the audit.
  await page.mouse.move(0, 0);
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) {
      if (Number.isFinite(animation.effect?.getTiming().iterations ?? 1)) animation.finish();
    }
  });
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    return (
      await axe.run(document, {
        resultTypes: ['violations'],
      })
    ).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`)
          .slice(0, 3)
          .join(', ')}`,
    );
}

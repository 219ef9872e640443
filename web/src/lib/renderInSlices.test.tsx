import { afterEach, expect, it } from 'vitest';
import { renderInSlices } from './renderInSlices.ts';

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
});

/** A component that costs the CPU a few milliseconds to render, as a screen's rows do on a phone. */
function Costly({ index }: { index: number }) {
  const until = performance.now() + 4;
  while (performance.now() < until);
  return <p>row {index}</p>;
}

it('lets other tasks run while the first render is under way, and shows the whole tree at once', async () => {
  const container = document.createElement('div');
  container.innerHTML = '<span>Loading</span>';
  document.body.append(container);
  const rows = 60; // about 240 ms of rendering
  const root = renderInSlices(
    container,
    Array.from({ length: rows }, (_, i) => i).map((row) => <Costly key={row} index={row} />),
  );
  unmounts.push(() => root.unmount());

  // A timer runs only between tasks: each one that fires before the tree is shown is a moment the
  // browser could have painted or answered a tap. One render in a single task lets at most one in.
  const seen: string[] = [];
  await new Promise<void>((resolve) => {
    const look = () => {
      seen.push(container.querySelectorAll('p').length === rows ? 'shown' : (container.textContent ?? ''));
      if (seen.at(-1) === 'shown') resolve();
      else setTimeout(look, 0);
    };
    setTimeout(look, 0);
  });
  expect(seen.filter((s) => s === 'Loading').length).toBeGreaterThan(5);
  expect(seen.filter((s) => s !== 'Loading' && s !== 'shown')).toEqual([]); // never half a tree
});

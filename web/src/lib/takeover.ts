import { HELD_PRESSES } from '../../../api/src/users/contract.ts';

type Held = { buttons: HTMLElement[]; hold: (event: MouseEvent) => void };

/**
 * A page rendered on the server holds the presses on its buttons made before the app has taken it
 * over (its inline script, api/src/http/web-page.ts): once the app has, they happen.
 */
export function tookOver() {
  const held = (window as unknown as Record<string, Held | undefined>)[HELD_PRESSES];
  if (!held) return;
  document.removeEventListener('click', held.hold, true);
  delete (window as unknown as Record<string, unknown>)[HELD_PRESSES];
  // Not from within React's commit (the app's first effect): a button in a part of the page React
  // takes over later (a Suspense boundary) is taken over at its press, which React cannot do
  // there, so it would drop the press.
  setTimeout(() => {
    for (const button of held.buttons.splice(0)) if (button.isConnected) button.click();
  });
}

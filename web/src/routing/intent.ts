// Links anywhere in the signed-in app start their screen early (preloadOnIntent); what starting
// means is the route table's (routes/signedIn.tsx hands it over), so a screen's links do not
// import the table that imports the screens.

let preloadRoute: (to: string) => void = () => {};

/** Called once by the signed-in route table with its way to start a screen's code and data. */
export function setRoutePreloader(preload: (to: string) => void) {
  preloadRoute = preload;
}

/**
 * A pointer resting on, a finger touching or the keyboard reaching a link starts the screen's
 * code and data, so the click that usually follows finds both on their way or done.
 */
export function preloadOnIntent(to: string) {
  const preload = () => preloadRoute(to);
  return { onMouseEnter: preload, onFocus: preload, onTouchStart: preload };
}

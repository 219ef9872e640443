/**
 * A module's load, made once: later calls share the first one's promise instead of importing again.
 * A route's code is asked for by every router that matches it, and the server makes a router for
 * each page it renders: there every import() goes to the module loader's hooks on another thread
 * (tsx), a round trip for a module long loaded. A load that failed is tried again next time.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

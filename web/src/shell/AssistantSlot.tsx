import { SparkleIcon } from '../ui/icons.tsx';

// Replaced by the assistant panel once the assistant API is on main.
export function AssistantSlot() {
  return (
    <button
      type="button"
      aria-label="Open AI assistant"
      className="fixed right-4 bottom-20 z-40 flex h-14 w-14 items-center justify-center rounded-full bg-indigo-600 text-white shadow-lg hover:bg-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 md:bottom-6"
    >
      <SparkleIcon className="h-6 w-6" />
    </button>
  );
}

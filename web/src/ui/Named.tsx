/**
 * A name in a message (“Location_XXXX…”): cut to the line with an ellipsis
 * on screen, whole for screen readers and in its tooltip.
 */
export function Named({ name }: { name: string }) {
  return (
    <>
      “
      <span className="inline-block max-w-[calc(100%-1.5em)] truncate align-bottom font-medium" title={name}>
        {name}
      </span>
      ”
    </>
  );
}

// The fixed vocabularies of the forms and sorts (value and label pairs): reading one from an address
// or a record.

/** The option `value` names, or `fallback` when it names none (say, an address edited by hand). */
export function choiceFrom<T extends string>(
  options: readonly { value: T }[],
  value: string | null | undefined,
  fallback: T,
): T {
  return options.find((option) => option.value === value)?.value ?? fallback;
}

export function labelOf(options: readonly { value: string; label: string }[], value: string | null | undefined) {
  return options.find((option) => option.value === value)?.label ?? value ?? '';
}

/**
 * An option list from its labels by value, in the order written: `choices({ low: 'Low' })` is
 * `[{ value: 'low', label: 'Low' }]`.
 */
export function choices<const T extends Record<string, string>>(
  labels: T,
): readonly { readonly value: keyof T & string; readonly label: string }[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}

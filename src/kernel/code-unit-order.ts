/**
 * Orders two strings by their UTF-16 code units, as `<` does: the same on every machine, and
 * without ICU's collation data, which `localeCompare` pages in on first use (~3 MiB of a
 * small bot's memory). For names the model or a program reads (tools, actions), not for
 * text a person reads in a sorted list.
 */
export function compareCodeUnits(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

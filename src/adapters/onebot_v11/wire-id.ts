/**
 * An id as action params carry it: a number when it is one (Lagrange's typed params reject
 * strings), otherwise the string unchanged.
 */
export function toWireId(id: string): number | string {
  if (!/^-?\d+$/.test(id)) return id;
  const number = Number(id);
  return Number.isSafeInteger(number) ? number : id;
}

/** The `message_id` of a send action's `data`, as a string; undefined when absent. */
export function messageIdOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null || !Object.hasOwn(data, 'message_id')) return undefined;
  const id = (data as { message_id: unknown }).message_id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : undefined;
}

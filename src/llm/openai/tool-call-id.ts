/**
 * The id of a tool call: the provider's, or, when it sent none (some local servers), a
 * stable one built from the call's position and name, `call_<index>_<name>`.
 */
export function toolCallId(id: string | null | undefined, index: number, name: string): string {
  return typeof id === 'string' && id !== '' ? id : `call_${index}_${name}`;
}

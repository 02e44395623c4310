/** `# ...` lines for a description or header text; an empty line inside it becomes a bare `#`. */
export function commentLines(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text.split(/\r?\n/).map((line) => (line === '' ? '#' : `# ${line}`));
}

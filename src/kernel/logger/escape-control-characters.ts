// C0 controls, DEL, C1 controls (U+009B is a one-character CSI to some terminals) and the
// Unicode line and paragraph separators, which some viewers break lines on.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// What JSON.stringify leaves as it is.
const NON_JSON_CONTROL_CHARACTERS = /[\u007f-\u009f\u2028\u2029]/g;

const NAMED = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

function escapeOne(character: string): string {
  const named = NAMED.get(character);
  if (named !== undefined) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character written out as an escape (`\n`, `\r`, `\t`, `\x1b`,
 * `\x9b`, `\u2028`), so that text from the wire stays on its log line and cannot colour the
 * terminal.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, escapeOne);
}

/**
 * Escapes only what JSON text may still hold raw: DEL, the C1 controls and U+2028/U+2029.
 * For a finished terminal line whose own colours (ESC sequences) must survive.
 */
export function escapeNonJsonControlCharacters(text: string): string {
  return text.replace(NON_JSON_CONTROL_CHARACTERS, escapeOne);
}

import type { ToolCallNotice } from './console-actions.js';

/** Longest arguments and result shown; a tool's full answer is on the web console's traces page. */
const ARGS_MAX_CHARS = 80;
const RESULT_MAX_CHARS = 120;

/** `text` on one line (runs of whitespace, newlines included, become one space), cut to `max` code points with `…`. */
function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length <= max ? flat : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * One short line for a tool call in the terminal: `· roll_dice {"count":2} → 2d6: 6 + 3 = 9`,
 * or `· roll_dice {"count":99} ✗ <why it failed>`. Arguments and result are cut to a line.
 */
export function formatToolCall(notice: ToolCallNotice): string {
  const args = Object.keys(notice.args).length === 0 ? '' : ` ${oneLine(JSON.stringify(notice.args), ARGS_MAX_CHARS)}`;
  const outcome = notice.success ? `→ ${oneLine(notice.observation, RESULT_MAX_CHARS) || '(no output)'}` : `✗ ${oneLine(notice.errorMessage ?? '', RESULT_MAX_CHARS) || 'failed'}`;
  return `· ${notice.name}${args} ${outcome}`;
}

/** The notice in `params` as the host sent it, read defensively (it crossed a process boundary). */
export function readToolCallNotice(params: Readonly<Record<string, unknown>>): ToolCallNotice {
  const args = params['args'];
  return {
    name: typeof params['name'] === 'string' ? params['name'] : String(params['name']),
    args: typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
    success: params['success'] === true,
    observation: typeof params['observation'] === 'string' ? params['observation'] : '',
    errorMessage: typeof params['errorMessage'] === 'string' ? params['errorMessage'] : null,
  };
}

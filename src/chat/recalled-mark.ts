/** What the prompt shows before a recalled message's text. */
export const RECALLED_MARK = '[已撤回]';

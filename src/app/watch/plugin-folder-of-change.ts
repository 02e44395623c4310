import { sep } from 'node:path';

// Files whose change is not a change of the plugin's code: its own config.toml (the host
// writes it at load, and the web console reloads the plugin when it saves it), editors'
// swap and backup files, version control, and the plugin's own node_modules.
const IGNORED_PARTS = new Set(['node_modules', '.git']);
const IGNORED_NAME = /^(config\.toml|\.#.*|#.*#|.*~|.*\.sw[a-p]|\d+|.*\.tmp|.*___jb_(?:tmp|old)___)$/;

/**
 * The name of the plugin folder (a direct sub-folder of plugins/) that a file event under
 * plugins/ is about, or undefined when the event does not concern a plugin's code. `path`
 * is the name fs.watch reports, relative to plugins/.
 */
export function pluginFolderOfChange(path: string): string | undefined {
  const parts = path.split(sep).filter((part) => part !== '');
  const folder = parts[0];
  if (folder === undefined || folder.startsWith('.')) return undefined;
  if (parts.length === 1) return folder; // the folder itself: created, deleted or renamed
  if (parts.slice(1).some((part) => IGNORED_PARTS.has(part) || (part.startsWith('.') && part !== parts.at(-1)))) return undefined;
  const name = parts.at(-1)!;
  if (name.startsWith('.') || IGNORED_NAME.test(name)) return undefined;
  return folder;
}

import { signaturePartProblem } from '../../kernel/signature/signature-part.js';

/** The longest plugin id, in characters; it names a folder and `<id>.toml`. */
export const MAX_PLUGIN_ID_LENGTH = 128;

// Device names Windows reserves in every folder, also with an extension (`con.txt`).
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/**
 * Why `id` cannot be a plugin id, or `undefined` when it can. The id is a signature part and
 * also a folder and file name (`data/plugins/<id>/`, the plugin's config file), so `.` and
 * `..` would point at another folder, and names that Windows alters or reserves are refused.
 */
export function pluginIdProblem(id: unknown): string | undefined {
  const problem = signaturePartProblem(id);
  if (problem !== undefined) return problem;
  const text = id as string;
  if (/^\.+$/.test(text)) return `"${text}" 只由点组成，不能作为文件夹名 (an id of only dots would name another folder, not the plugin's own)`;
  if (text.startsWith('.') || text.endsWith('.')) {
    return `"${text}" 不能以点开头或结尾 (an id must not start or end with ".": a hidden folder, or one Windows renames)`;
  }
  if (WINDOWS_DEVICE_NAME.test(text)) return `"${text}" 是 Windows 保留的设备名 (Windows reserves this name for a device, not a folder)`;
  if (text.length > MAX_PLUGIN_ID_LENGTH) return `"${text.slice(0, 32)}…" 太长 (at most ${MAX_PLUGIN_ID_LENGTH} characters, got ${text.length})`;
  return undefined;
}

import { join, sep } from 'node:path';
import type { PluginRoot } from '../discovery/plugin-root.js';

function holds(parent: string, folder: string): boolean {
  return folder.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/**
 * The root a plugin folder belongs to: the one holding it most closely (a packages root is
 * the whole bot project, which also holds plugins/, but only its node_modules/ holds
 * packages). Undefined when no root holds it.
 */
export function rootHoldingFolder(roots: readonly PluginRoot[], folder: string): PluginRoot | undefined {
  const holding = roots.filter((root) => holds(root.packages === true ? join(root.path, 'node_modules') : root.path, folder));
  return holding.sort((a, b) => b.path.length - a.path.length)[0];
}

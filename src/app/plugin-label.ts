import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as z from 'zod';
import { pluginIdProblem } from '../plugin-system/manifest/plugin-id-problem.js';
import type { PluginStatus } from '../plugin-system/discovery/plugin-status.js';

/** Only the id of a manifest that failed its other checks: enough to name the plugin. */
const ManifestId = z.object({ id: z.string().refine((id) => pluginIdProblem(id) === undefined) });

/**
 * How a plugin is named to a person: its manifest id, also when the manifest was refused for
 * another field (a missing description still names `example.greeter`); the folder's name
 * only when no usable id can be read from `_manifest.json` at all.
 */
export function pluginLabel(status: PluginStatus): string {
  return status.id ?? statedId(status.folder) ?? basename(status.folder);
}

function statedId(folder: string): string | undefined {
  try {
    const parsed = ManifestId.safeParse(JSON.parse(readFileSync(join(folder, '_manifest.json'), 'utf8')));
    return parsed.success ? parsed.data.id : undefined;
  } catch {
    return undefined; // unreadable or not JSON: the folder names it
  }
}

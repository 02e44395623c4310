import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PluginFolderSpec {
  id: string;
  version?: string;
  dependencies?: Record<string, string | { version: string; optional?: boolean }>;
  /** The whole `plugin.ts`, importing from 'moonglass' as a real plugin does. */
  source: string;
}

/** Writes `<root>/<id>/` with a `_manifest.json` for `spec` and its `plugin.ts`; returns the folder. */
export function writePluginFolder(root: string, spec: PluginFolderSpec): string {
  const folder = join(root, spec.id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, '_manifest.json'),
    JSON.stringify({
      manifest_version: 1,
      id: spec.id,
      plugin_type: 'tool',
      name: spec.id,
      version: spec.version ?? '1.0.0',
      description: `test plugin ${spec.id}`,
      host_application: { min_version: '0.1.0', max_version: '0.1.9' },
      ...(spec.dependencies === undefined ? {} : { dependencies: spec.dependencies }),
    }),
  );
  writeFileSync(join(folder, 'plugin.ts'), spec.source);
  return folder;
}

/** The shared list plugin sources push to (`record('...')` in their code), emptied on each read. */
export function recorded(key: string): string[] {
  return (((globalThis as Record<string, unknown>)[key] ??= []) as string[]).splice(0);
}

/** A line of plugin source that defines `record(entry)`, pushing to the list `recorded(key)` reads. */
export function recorderSource(key: string): string {
  return `const record = (entry: string): void => void (((globalThis as Record<string, unknown>)[${JSON.stringify(key)}] ??= []) as string[]).push(entry);`;
}

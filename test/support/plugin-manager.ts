import { cpSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PluginManager } from '../../src/plugin-system/plugin-manager.js';
import { PluginScope } from '../../src/kernel/scope/plugin-scope.js';
import { ToolRegistry } from '../../src/tools/tool-registry.js';
import { copyFixture } from './temp-dir.js';
import { createTestRegistry } from './registry.js';

export interface ManagerSetup {
  /** Fixture folder names under test/fixtures/plugin-roots/built-in. */
  builtIn?: string[];
  /** Fixture folder names under test/fixtures/plugin-roots/third-party. */
  thirdParty?: string[];
  hostVersion?: string;
  forceCompatibility?: boolean;
  reversibleEnabled?: string[];
  /** Folders copied into the built-in root under their own names (absolute paths). */
  builtInFolders?: string[];
  /** Third-party fixture names copied into the built-in root, which is scanned first. */
  thirdPartyFirst?: string[];
  lifecycleTimeoutMs?: number;
}

/** A plugin manager over copies of fixture plugins in `workDir`, with a memory logger. */
export function createTestManager(workDir: string, setup: ManagerSetup = {}) {
  const base = createTestRegistry();
  const roots = { builtIn: join(workDir, 'built-in'), thirdParty: join(workDir, 'third-party') };
  mkdirSync(roots.builtIn, { recursive: true });
  mkdirSync(roots.thirdParty, { recursive: true });
  for (const name of setup.builtIn ?? []) copyFixture(`plugin-roots/built-in/${name}`, join(roots.builtIn, name));
  for (const name of setup.thirdPartyFirst ?? []) copyFixture(`plugin-roots/third-party/${name}`, join(roots.builtIn, name));
  for (const name of setup.thirdParty ?? []) copyFixture(`plugin-roots/third-party/${name}`, join(roots.thirdParty, name));
  // A config.toml left in the source folder by a local run is not part of the plugin.
  for (const folder of setup.builtInFolders ?? []) {
    cpSync(folder, join(roots.builtIn, basename(folder)), { recursive: true, filter: (source) => basename(source) !== 'config.toml' });
  }
  const reversible = new Set(setup.reversibleEnabled ?? []);
  const tools = new ToolRegistry({ clock: base.clock, logger: base.logger, isReversibleEnabled: (name) => reversible.has(name) });
  const manager = new PluginManager({
    roots: [
      { path: roots.builtIn, builtIn: true },
      { path: roots.thirdParty, builtIn: false },
    ],
    registry: base.registry,
    bus: base.bus,
    tools,
    logger: base.logger,
    clock: base.clock,
    host: { version: setup.hostVersion ?? '0.1.0', configDir: join(workDir, 'config'), dataDir: join(workDir, 'data') },
    forceCompatibility: setup.forceCompatibility ?? false,
    createScope: (id) => new PluginScope(id, base.logger.child({ plugin: id })),
    ...(setup.lifecycleTimeoutMs === undefined ? {} : { lifecycleTimeoutMs: setup.lifecycleTimeoutMs }),
  });
  const status = (folderName: string) => manager.list().find((entry) => entry.folder.endsWith(`/${folderName}`));
  const logs = (message: string | RegExp) =>
    base.records.filter((record) => (typeof message === 'string' ? record.msg === message : message.test(record.msg)));
  return { ...base, manager, tools, roots, status, logs };
}

/** The names fixture entries pushed when they were evaluated (see the fixtures' first lines). */
export function fixtureEvaluations(): string[] {
  const store = globalThis as Record<string, unknown>;
  return ((store['__fixtureEvaluations'] as string[] | undefined) ??= []);
}

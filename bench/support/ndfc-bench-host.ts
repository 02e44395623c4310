import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A plugin root at `root` holding a copy of NDFC from `source` (a tree's built-in folder),
 * with no typing delay: the NDFC benches measure the framework, not a simulated typist.
 */
export function prepareNdfcRoot(source: string, root: string): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const target = join(root, 'neo_default_chatter');
  cpSync(join(source, 'neo_default_chatter'), target, { recursive: true, filter: (path) => !path.endsWith('config.toml') });
  writeFileSync(join(target, 'config.toml'), '[plugin]\ntyping_delay_per_char = 0\n');
}

/** The host options of the NDFC benches: in-memory database, NDFC as the chatter, no message buffer. */
export function ndfcBenchHostOptions<L>(root: string, logger: L) {
  return {
    logger,
    appConfig: {},
    database: 'memory' as const,
    pluginRoots: [{ path: root, builtIn: true }],
    botConfig: { chat: { default_chatter: 'neo_default_chatter:chatter:neo_default_chatter', message_buffer_seconds: 0, step_timeout_seconds: 90 } },
  };
}

import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { provideSqliteAddon } from './installed-bot.js';
import { runOrThrow } from './run-command.js';

/**
 * `npm pack` of the plugin package in `folder` into `tarballs`, then `npm install <tarball>` in
 * the bot project (from npm's cache only: the plugin's own dependencies must be there), as a
 * person installs a plugin they downloaded. npm copies a tarball in: node_modules/<name> is a
 * folder of its own, not a link to the author's.
 */
export async function installPluginTarball(project: string, checkoutRoot: string, folder: string, tarballs: string): Promise<void> {
  mkdirSync(tarballs, { recursive: true });
  const packed = await runOrThrow('npm', ['pack', '--json', '--loglevel=warn', '--pack-destination', tarballs], { cwd: folder });
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  await runOrThrow('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=warn', join(tarballs, filename)], { cwd: project, timeoutMs: 120_000 });
  // npm may have laid node_modules out again; the addon is not built here (see installed-bot.ts).
  provideSqliteAddon(project, checkoutRoot);
}

/** `chmod -R a-w folder`. */
export function makeReadOnly(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) makeReadOnly(join(folder, entry.name));
    else if (entry.isFile()) chmodSync(join(folder, entry.name), 0o444);
  }
  chmodSync(folder, 0o555);
}

/** Undoes makeReadOnly, so that a user who is not root can remove the folder. */
export function makeWritable(folder: string): void {
  if (!existsSync(folder)) return;
  chmodSync(folder, 0o755);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) makeWritable(join(folder, entry.name));
    else if (entry.isFile()) chmodSync(join(folder, entry.name), 0o644);
  }
}

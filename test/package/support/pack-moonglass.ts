import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runOrThrow } from './run-command.js';

/** What `npm pack` made: the tarball and the paths inside it (without the `package/` prefix). */
export interface PackedMoonglass {
  tarball: string;
  files: string[];
}

// The checkout's files a build and a pack read; the copy gets the checkout's node_modules by link.
export const BUILD_INPUTS = ['src', 'bin', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md'];

/**
 * `npm pack` of the checkout as it is now, in a copy under `scratch` (the prepack script builds
 * dist/ there), so the checkout itself gets no dist/ and no tarball.
 */
export async function packMoonglass(projectRoot: string, scratch: string): Promise<PackedMoonglass> {
  const copy = join(scratch, 'moonglass-checkout');
  mkdirSync(copy, { recursive: true });
  for (const input of BUILD_INPUTS) {
    if (existsSync(join(projectRoot, input))) cpSync(join(projectRoot, input), join(copy, input), { recursive: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const destination = join(scratch, 'packed');
  mkdirSync(destination);
  const { stdout } = await runOrThrow('npm', ['pack', '--json', '--loglevel=warn', '--pack-destination', destination], { cwd: copy, timeoutMs: 240_000 });
  // The prepack build prints to stdout too; the JSON report is the last thing printed.
  const report = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1)) as { filename: string; files: { path: string }[] }[];
  const tarball = readdirSync(destination).find((name) => name.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball into ${destination}`);
  return { tarball: join(destination, tarball), files: report[0]!.files.map((file) => file.path) };
}

#!/usr/bin/env node
// The `moonglass` command. In a checkout (src/ present) it runs the TypeScript sources through
// tsx with the `source` export condition, exactly like `npm start`; in a built install it runs
// dist/. The sources need Node flags, so they run in a child process that shares our terminal.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const source = fileURLToPath(new URL('../src/app/main.ts', import.meta.url));
const built = fileURLToPath(new URL('../dist/app/main.js', import.meta.url));

if (!existsSync(source) && existsSync(built)) {
  await import(pathToFileURL(built).href);
} else {
  const typescript = new URL('../src/register-typescript.mjs', import.meta.url).href;
  const child = spawn(process.execPath, ['--conditions=source', '--import', typescript, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  // Ctrl+C reaches the child through the terminal's process group; a SIGTERM sent to us alone is passed on.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + 2)));
}

// After `tsc` has compiled src/ to dist/: copy what plugins and adapters need besides their
// compiled code (manifests), so that dist/plugins/built_in/<name>/ and dist/adapters/<name>/
// are complete folders, and the TypeScript loader the compiled host registers for a bot
// project's plugin.ts files (src/plugin-system/loader/typescript-loader.ts).
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

for (const file of ['register-typescript.mjs', 'typescript.tsconfig.json']) cpSync(join('src', file), join('dist', file));

// The web console's page, script and styles.
if (existsSync('src/admin/ui')) cpSync('src/admin/ui', 'dist/admin/ui', { recursive: true });

for (const folder of ['plugins/built_in', 'adapters']) {
  const source = join('src', folder);
  if (!existsSync(source)) continue;
  for (const name of readdirSync(source)) {
    const manifest = join(source, name, '_manifest.json');
    if (existsSync(manifest)) cpSync(manifest, join('dist', folder, name, '_manifest.json'));
  }
}

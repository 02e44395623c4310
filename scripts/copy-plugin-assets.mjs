// After `tsc` has compiled src/ to dist/: copy what plugins need besides their compiled code
// (manifests), so that dist/plugins/built_in/<name>/ is a complete plugin folder.
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const source = 'src/plugins/built_in';
const target = 'dist/plugins/built_in';
if (existsSync(source)) {
  for (const name of readdirSync(source)) {
    const manifest = join(source, name, '_manifest.json');
    if (existsSync(manifest)) cpSync(manifest, join(target, name, '_manifest.json'));
  }
}

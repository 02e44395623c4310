// `node --import <this file>`: runs TypeScript through tsx with moonglass's own compiler
// settings (src/typescript.tsconfig.json) for every file, ES module or CommonJS, so plugin
// decorators work no matter which folder the bot is started from or which tsconfig.json lies
// nearby. Child processes inherit the setting through TSX_TSCONFIG_PATH.
import { fileURLToPath } from 'node:url';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register as registerEsm } from 'tsx/esm/api';

// The host's heavy JavaScript dependencies are loaded by Node's own loader before the hooks
// exist: through the hooks every file of theirs costs a round trip to the loader thread
// (inversify alone is ~370 files), about 0.3 s of every start. Only for the host's entry;
// the adapter processes need none of them.
const HOST_ENTRY = fileURLToPath(new URL('./app/main.ts', import.meta.url));
if (process.argv[1] === HOST_ENTRY) {
  await Promise.all(['reflect-metadata', 'inversify', 'zod', 'pino', 'smol-toml', 'better-sqlite3', 'semver'].map((name) => import(name)));
}

const tsconfig = fileURLToPath(new URL('./typescript.tsconfig.json', import.meta.url));
process.env.TSX_TSCONFIG_PATH = tsconfig;
registerCommonJs();
registerEsm({ tsconfig });

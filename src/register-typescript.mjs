// `node --import <this file>`: runs TypeScript through tsx with moonglass's own compiler
// settings (src/typescript.tsconfig.json) for every file, ES module or CommonJS, so plugin
// decorators work no matter which folder the bot is started from or which tsconfig.json lies
// nearby. Child processes inherit the setting through TSX_TSCONFIG_PATH.
import { fileURLToPath } from 'node:url';
import { register as registerCommonJs } from 'tsx/cjs/api';
import { register as registerEsm } from 'tsx/esm/api';

const tsconfig = fileURLToPath(new URL('./typescript.tsconfig.json', import.meta.url));
process.env.TSX_TSCONFIG_PATH = tsconfig;
registerCommonJs();
registerEsm({ tsconfig });

// Before `npm run build`: an empty dist/, so that files of renamed or deleted sources are not
// packed with the new ones.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });

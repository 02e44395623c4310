import { fileURLToPath } from 'node:url';

/** The repository's root folder, without a trailing slash. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

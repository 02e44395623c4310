// The docs' sample tests (`*.test.ts` fences, written to docs-samples/ by the docs check) run
// with the repo's own vitest settings: decorators, the `source` condition, the test setup.
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({ ...base, test: { ...base.test, include: ['docs-samples/**/*.test.ts'] } });

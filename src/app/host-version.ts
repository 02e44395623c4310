import { readFileSync } from 'node:fs';

/** The host's version, from package.json; plugins' host_application ranges are checked against it. */
export const HOST_VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

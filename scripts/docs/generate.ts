// `npm run docs:gen`: writes the reference pages (docs/reference/) from the code. Run it after
// changing a config schema, an event payload, the CLI's usage text, an error code or a TSDoc
// comment of the public API; `npm run docs:check` fails until the committed pages match.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { renderReferences, writeReferences } from './reference/render-references.js';
import { DOCS_ROOT } from './check/doc-pages.js';
import { withReadmeGuides } from './reference/readme-guides.js';
import { repoRoot } from './repo-root.js';

const files = await renderReferences(join(tmpdir(), `moonglass-docs-api-${process.pid}`));
writeReferences(join(DOCS_ROOT, 'reference'), files);
process.stdout.write(`docs:gen wrote ${files.size} reference pages into docs/reference/\n`);

const readmeFile = join(repoRoot, 'README.md');
const readme = withReadmeGuides(readFileSync(readmeFile, 'utf8'));
if (readme !== undefined) writeFileSync(readmeFile, readme);
else process.stdout.write('docs:gen: README.md has no guides markers; its table was not written\n');

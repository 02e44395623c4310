// `npm run docs:gen`: writes the reference pages (docs/reference/) from the code. Run it after
// changing a config schema, an event payload, the CLI's usage text, an error code or a TSDoc
// comment of the public API; `npm run docs:check` fails until the committed pages match.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { renderReferences, writeReferences } from './reference/render-references.js';
import { DOCS_ROOT } from './check/doc-pages.js';

const { files } = await renderReferences(join(tmpdir(), `moonglass-docs-api-${process.pid}`));
writeReferences(join(DOCS_ROOT, 'reference'), files);
process.stdout.write(`docs:gen wrote ${files.size} reference pages into docs/reference/\n`);

// The API reference (docs/reference/api/): TypeDoc over the three public entries, written as
// Markdown pages by typedoc-plugin-markdown so they are part of the same VitePress site.
import { Application, type ProjectReflection, type TypeDocOptions } from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';
import { repoRoot } from '../repo-root.js';

export const PUBLIC_ENTRIES = ['src/index.ts', 'src/ndfc.ts', 'src/testing.ts'];

/** Converts the public entries; `out` is where `writeApiReference` will put the pages. */
export async function convertPublicApi(out: string): Promise<{ app: Application; project: ProjectReflection }> {
  const options: Partial<TypeDocOptions & PluginOptions> = {
    entryPoints: PUBLIC_ENTRIES.map((entry) => `${repoRoot}/${entry}`),
    tsconfig: `${repoRoot}/tsconfig.build.json`,
    plugin: ['typedoc-plugin-markdown'],
    out,
    readme: 'none',
    // No source links: they would carry line numbers, and every edit anywhere would make the
    // committed pages stale. The declaration's file is named in the text instead.
    disableSources: true,
    excludePrivate: true,
    excludeInternal: true,
    excludeExternals: true,
    githubPages: false,
    hideGenerator: true,
    logLevel: 'Error',
    entryFileName: 'index',
    outputFileStrategy: 'members',
    hidePageHeader: true,
    hideBreadcrumbs: true,
    sanitizeComments: true,
    useCodeBlocks: true,
    expandObjects: false,
    parametersFormat: 'table',
    interfacePropertiesFormat: 'table',
    classPropertiesFormat: 'table',
    typeDeclarationFormat: 'table',
    propertyMembersFormat: 'table',
    indexFormat: 'table',
    // Relative links inside the site must not end in .md for VitePress's clean URLs to work;
    // both forms work, but keep the files' own names.
    publicPath: '/reference/api/',
  };
  const app = await Application.bootstrapWithPlugins(options);
  const project = await app.convert();
  if (project === undefined) throw new Error('TypeDoc could not convert the public API (see the errors above)');
  return { app, project };
}

/** Writes the Markdown pages into the `out` folder given to `convertPublicApi`. */
export async function writeApiReference(app: Application, project: ProjectReflection): Promise<void> {
  await app.generateOutputs(project);
}

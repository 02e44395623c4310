/** The tools a bot project develops with, at the versions moonglass itself is tested with. */
const DEV_TOOLS = ['@types/node', 'typescript', 'vitest'] as const;

export function packageJson(options: { name: string; moonglassSpec: string; hostDevDependencies: Record<string, string> }): string {
  const devDependencies = Object.fromEntries(DEV_TOOLS.map((tool) => [tool, options.hostDevDependencies[tool] ?? 'latest']));
  const manifest = {
    name: options.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: {
      start: 'moonglass start',
      check: 'moonglass check',
      plugins: 'moonglass plugins',
      test: 'vitest run',
      typecheck: 'tsc --noEmit',
    },
    dependencies: { moonglass: options.moonglassSpec },
    devDependencies,
    // better-sqlite3 builds or downloads its native addon at install; esbuild (under tsx) checks its binary.
    allowScripts: { 'better-sqlite3': true, esbuild: true },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

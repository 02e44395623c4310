/** Where plugins are found: a folder with one sub-folder per plugin, or a bot project's plugin packages. */
export interface PluginRoot {
  /** The folder scanned; for a packages root, the bot project (the folder with package.json). */
  readonly path: string;
  /** Built-in plugins ship with the host: they may omit host_application. */
  readonly builtIn: boolean;
  /**
   * The plugins are the project's dependencies that are plugin packages (`moonglass-plugin`
   * keyword and a `_manifest.json`, installed in `<path>/node_modules`), not sub-folders.
   */
  readonly packages?: boolean;
}

/** A folder scanned for plugins, one sub-folder per plugin. */
export interface PluginRoot {
  readonly path: string;
  /** Built-in plugins ship with the host: they may omit host_application. */
  readonly builtIn: boolean;
}

import type * as z from 'zod';
import type { PluginConfigModel } from './plugin-config.js';
import { commentLines } from './comment-lines.js';
import { renderPluginTable } from './render-plugin-table.js';

/** The two comment lines at the top of every generated `config.toml`. */
const PLUGIN_CONFIG_HEADER: readonly string[] = [
  '本文件由宿主按插件声明的配置模型自动生成，可以直接编辑。',
  '删掉它会在下次启动时重新生成一份默认配置。',
];

/**
 * The text of a plugin's `config.toml`: the header comments, a blank line, then the
 * `[plugin]` table with every field of `model` (its description as the comment above it)
 * set to `values`; object fields become `[plugin.<name>]` sub-tables after the others.
 * Used both to generate the default file and to save edited values.
 */
export function renderPluginConfig(model: PluginConfigModel, values: Record<string, unknown>): string {
  const lines = [
    ...PLUGIN_CONFIG_HEADER.flatMap((line) => commentLines(line)),
    '',
    ...renderPluginTable(['plugin'], model.shape as Record<string, z.ZodType>, values),
  ];
  return `${lines.join('\n')}\n`;
}

import type { PluginMcpAccess } from '../mcp/mcp-types.js';
import { createPluginMediaAccess } from '../media/plugin-media-access.js';
import type { PluginServiceFactories } from './plugin-context.js';

/** `ctx.mcp` / `ctx.media` of a host that wired no such service: every call fails, saying so. */
export const UNWIRED_SERVICES: PluginServiceFactories = {
  mcp(pluginId): PluginMcpAccess {
    return Object.freeze({
      callTool: () =>
        Promise.reject(new Error(`plugin ${pluginId} called ctx.mcp.callTool(), but this host has no MCP service wired (a plugin manager built without one, as in some tests)`)),
    });
  },
  media: (pluginId) => createPluginMediaAccess(undefined, pluginId),
};

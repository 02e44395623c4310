import type { PluginMcpAccess } from '../mcp/mcp-types.js';
import type { PluginMediaAccess } from '../media/media-types.js';
import type { PluginServiceFactories } from './plugin-context.js';

function notWired(service: string, pluginId: string): never {
  throw new Error(`plugin ${pluginId} called ctx.${service}, but this host has no ${service} service wired (a plugin manager built without one, as in some tests)`);
}

/** `ctx.mcp` / `ctx.media` of a host that wired no such service: every call throws, saying so. */
export const UNWIRED_SERVICES: PluginServiceFactories = {
  mcp(pluginId): PluginMcpAccess {
    return Object.freeze({ callTool: () => notWired('mcp', pluginId) });
  },
  media(pluginId): PluginMediaAccess {
    const fail = () => notWired('media', pluginId);
    return Object.freeze({
      describeImage: fail,
      describeVideo: fail,
      imagesAvailable: fail,
      videosAvailable: fail,
      videosWatchedOnArrival: fail,
      maxWaitS: fail,
    });
  },
};

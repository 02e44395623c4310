import type { MediaService } from './media-service.js';
import type { PluginMediaAccess } from './media-types.js';

function notWired(pluginId: string, method: string): Error {
  return new Error(
    `plugin ${pluginId} called ctx.media.${method}(), but this host has no media service wired (a host built without chat, or a test harness without one)`,
  );
}

/**
 * `this.ctx.media` for one plugin: the host's media service behind a frozen facade, so a
 * plugin never holds the service itself; its log lines name the plugin as requester. With
 * no service (`undefined`), every method fails with an error saying the host has none:
 * `describeImage`/`describeVideo` reject, the others throw.
 */
export function createPluginMediaAccess(service: MediaService | undefined, pluginId: string): PluginMediaAccess {
  if (service === undefined) {
    return Object.freeze({
      describeImage: () => Promise.reject(notWired(pluginId, 'describeImage')),
      describeVideo: () => Promise.reject(notWired(pluginId, 'describeVideo')),
      imagesAvailable: () => {
        throw notWired(pluginId, 'imagesAvailable');
      },
      videosAvailable: () => {
        throw notWired(pluginId, 'videosAvailable');
      },
      videosWatchedOnArrival: () => {
        throw notWired(pluginId, 'videosWatchedOnArrival');
      },
      maxWaitS: () => {
        throw notWired(pluginId, 'maxWaitS');
      },
    });
  }
  const access: PluginMediaAccess = {
    describeImage: (source, options) =>
      service.describeImage(source, { signal: options?.signal, requester: pluginId }),
    describeVideo: (url, contentFileName, options) =>
      service.describeVideo(url, contentFileName, { signal: options?.signal, requester: pluginId }),
    imagesAvailable: () => service.imagesAvailable(),
    videosAvailable: () => service.videosAvailable(),
    videosWatchedOnArrival: (inbound) => service.videosWatchedOnArrival(inbound),
    maxWaitS: (kinds) => service.maxWaitS(kinds ?? {}),
  };
  return Object.freeze(access);
}

import * as z from 'zod';
import { DEFAULT_EVENT_HANDLER_TIMEOUT_SECONDS } from '../event-bus/event-bus.js';

/** The default cap on a tool observation before it returns to the prompt (the tool registry's too). */
export const DEFAULT_OBSERVATION_MAX_CHARS = 4000;

/** The host's own settings, `config/features.toml`. Later parts add their tables here. */
export const AppConfigSchema = z.object({
  advanced: z
    .object({
      event_handler_timeout: z
        .number()
        .describe(
          'Seconds an event handler may run before it counts as PASS, for handlers that declare no timeout of their own. 0 or less: no timeout.',
        )
        .default(DEFAULT_EVENT_HANDLER_TIMEOUT_SECONDS),
      force_compatibility: z
        .boolean()
        .describe(
          'Load third-party plugins whose host_application range does not match this version (or is missing), each with a warning. Manifest format checks still apply. Emergency use only.',
        )
        .default(false),
    })
    .describe('Advanced settings. The defaults suit almost every bot.')
    .prefault({}),
  tools: z
    .object({
      observation_max_chars: z
        .number()
        .int()
        .min(200)
        .describe('Longest tool result, in characters, that goes back into the prompt; longer ones are cut with a visible mark.')
        .default(DEFAULT_OBSERVATION_MAX_CHARS),
      reversible_enabled: z
        .array(z.string())
        .describe('Names of tools with reversible side effects that the model may use. Readonly tools are always offered; irreversible ones never.')
        .default([]),
    })
    .describe('Tools the model can call.')
    .prefault({}),
  media: z
    .object({
      images_enabled: z.boolean().describe('Describe chat images with the vision model (task `vlm` in models.toml).').default(true),
      image_max_bytes: z.number().int().positive().describe('Largest image downloaded for description, in bytes.').default(5 * 1024 * 1024),
      image_download_timeout_s: z.number().positive().describe('Seconds an image download may take.').default(10),
      videos_enabled: z.boolean().describe('Watch chat videos with the video model (task `video` in models.toml).').default(true),
      video_max_seconds: z.number().positive().describe('Longer videos are not watched; the chat shows their length and that they were skipped.').default(180),
      video_watch_scope: z
        .enum(['related', 'all'])
        .describe('Which inbound videos are watched on arrival: all, or only related ones (private chat, an @ of the bot, its name, a reply to it).')
        .default('related'),
      recognition_timeout_s: z
        .number()
        .positive()
        .describe('Seconds one description by the model may take (images and videos), on top of the download.')
        .default(30),
      allow_private_addresses: z
        .boolean()
        .describe(
          'Fetch chat images and videos from loopback, link-local and private addresses too, and read file:// URLs and local paths (a LAN or same-machine setup where NapCat serves files on 192.168.x.x or from its disk). Off: only http(s) URLs of public addresses are fetched, checked again at every redirect.',
        )
        .default(false),
    })
    .describe('Describing images and videos in chats (also offered to plugins as ctx.media).')
    .prefault({}),
  plugins: z
    .object({
      lifecycle_timeout_s: z
        .number()
        .positive()
        .describe("Seconds a plugin's onLoad, onUnload or a reload from the web console may take; past it the plugin is reported as failed at that step and the host goes on.")
        .default(30),
    })
    .describe('How plugins are loaded and unloaded.')
    .prefault({}),
  chat: z
    .object({
      max_inbound_chars: z
        .number()
        .int()
        .min(100)
        .describe('Longest inbound message text kept, in characters; longer text is cut with a visible mark and the raw frame is not stored whole.')
        .default(20_000),
      idle_evict_seconds: z
        .number()
        .positive()
        .describe('A conversation nobody wrote in for this long leaves memory (it stays in the database and comes back with its next message).')
        .default(1800),
    })
    .describe('Limits on what the chat keeps.')
    .prefault({}),
  admin: z
    .object({
      enabled: z.boolean().describe('Run the web console (on 127.0.0.1 only; the token to log in is printed at start).').default(true),
      port: z.number().int().min(0).max(65535).describe('Its port; 0 picks a free one.').default(7999),
    })
    .describe('The web console.')
    .prefault({}),
});

/** `config/features.toml` after validation, defaults filled in (see {@link AppConfigSchema}). */
export type AppConfig = z.output<typeof AppConfigSchema>;
/** `features.toml` as written: every field optional, nested ones too (defaults fill the rest). */
export type AppConfigInput = z.input<typeof AppConfigSchema>;

/** The host settings file inside the config folder. */
export const APP_CONFIG_FILE_NAME = 'features.toml';

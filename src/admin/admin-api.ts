import { describeError } from '../kernel/errors/describe-error.js';
import { savePluginConfig, type PluginConfigFieldError } from '../plugin-system/config/save-plugin-config.js';
import { savePluginEnabled } from '../plugin-system/config/save-plugin-enabled.js';
import { secretFields } from '../plugin-system/config/secret.js';
import type { AdminHostView } from './admin-host-view.js';
import { describeConfigForm } from './config-form.js';
import { streamIdFor } from '../chat/stream-id.js';
import { SANDBOX_PLATFORM } from './sandbox-channel.js';
import { chattersOf, disableQuestion, runningChatters } from './chatter-status.js';
import { streamName, tracedStreams } from './traced-streams.js';
import { handleMarketApi } from './market-api.js';
import { accountsOverview } from './account-overview.js';
import { handleRulesApi } from './rules-api.js';
import { localDayOf } from '../kernel/time/local-day.js';

/** An API answer: a status and a JSON body. */
export interface ApiResponse {
  status: number;
  body: unknown;
}

const notFound = (what: string): ApiResponse => ({ status: 404, body: { error: `not found: ${what}` } });

/** The console's JSON API. `path` is below `/api`; `body` is the parsed JSON of a PUT. */
export async function handleApi(view: AdminHostView, method: string, path: string, body: unknown, query = new URLSearchParams()): Promise<ApiResponse> {
  const parts = path.split('/').filter((part) => part !== '').map(decodeURIComponent);
  if (method === 'GET' && parts.length === 1 && parts[0] === 'overview') return { status: 200, body: overview(view) };
  if (method === 'GET' && parts.length === 1 && parts[0] === 'plugins') return { status: 200, body: plugins(view) };
  if (method === 'POST' && parts[0] === 'plugins' && parts.length === 3 && parts[2] === 'enabled') {
    const id = parts[1]!;
    if (!view.plugins.list().some((status) => status.id === id)) return notFound(`plugin ${id}`);
    const { enabled, confirm } = (body ?? {}) as { enabled?: unknown; confirm?: unknown };
    if (typeof enabled !== 'boolean') return { status: 400, body: { error: 'the body must be {"enabled": true | false, "confirm"?: true}' } };
    // Switching off the chatter that answers messages is asked about first (the page shows the question).
    const question = enabled ? undefined : disableQuestion(view.plugins.list(), id);
    if (question !== undefined && confirm !== true) {
      return { status: 409, body: { error: `not switched off: ${id} answers messages; send {"enabled": false, "confirm": true} to switch it off anyway`, confirm: question } };
    }
    // Only the switch changes: nothing else in the file (an invalid secret, say) can block it.
    const { folder, file, model } = await view.plugins.configOf(id);
    const switched = savePluginEnabled(folder, model, enabled, file);
    if (!switched.ok) return { status: 422, body: { errors: switched.errors } };
    return reloadSaved(view, id, []);
  }
  if (parts[0] === 'plugins' && parts.length === 3 && parts[2] === 'config') {
    const id = parts[1]!;
    if (!view.plugins.list().some((status) => status.id === id)) return notFound(`plugin ${id}`);
    if (method === 'GET') return { status: 200, body: await pluginConfig(view, id) };
    if (method === 'PUT') return savePlugin(view, id, body);
  }
  if (method === 'GET' && parts.length === 1 && parts[0] === 'events') return { status: 200, body: events(view) };
  if (method === 'GET' && parts.length === 1 && parts[0] === 'usage') return { status: 200, body: usage(view, 14) };
  if (method === 'GET' && parts.length === 1 && parts[0] === 'traces') return { status: 200, body: { streams: tracedStreams(view) } };
  if (method === 'GET' && parts.length === 2 && parts[0] === 'traces') return { status: 200, body: { streamId: parts[1], name: streamName(view, parts[1]!), turns: view.traces.turnsOf(parts[1]!) } };
  if (method === 'GET' && parts.length === 1 && parts[0] === 'sandbox') return { status: 200, body: sandboxState(view, Number(query.get('after') ?? '0') || 0) };
  if (method === 'POST' && parts.length === 2 && parts[0] === 'sandbox' && parts[1] === 'messages') return sandboxSend(view, body);
  if (method === 'GET' && parts.length === 1 && parts[0] === 'conversations') return { status: 200, body: conversations(view) };
  if (method === 'GET' && parts.length === 3 && parts[0] === 'conversations' && parts[2] === 'messages') {
    const streamId = parts[1]!;
    if (view.database.streams.get(streamId) === undefined) return notFound(`conversation ${streamId}`);
    return { status: 200, body: { messages: view.database.messages.history(streamId, 100).concat(view.database.messages.unread(streamId)) } };
  }
  const rules = handleRulesApi(view, method, parts, body);
  if (rules !== undefined) return rules;
  const market = await handleMarketApi(view, method, parts, body, query);
  if (market !== undefined) return market;
  return { status: 404, body: { error: `no API ${method} /api/${parts.join('/')}` } };
}

function overview(view: AdminHostView) {
  const now = view.clock.now();
  const today = localDayOf(now, view.timeZone ?? '');
  const statuses = view.plugins.list();
  return {
    version: view.version,
    uptimeSeconds: Math.round((now - view.startedAt) / 1000),
    configDir: view.configDir,
    dataDir: view.dataDir,
    model: view.modelDescription(),
    adapter: view.adapterStatus() ?? null,
    // Connected and seen accounts first, then those known only from stored conversations (offline).
    accounts: accountsOverview(view),
    messagesToday: view.database.messages.countSince(Math.floor(today.start / 1000)),
    // sizeBytes counts the -wal and -shm files too; 0 when file is :memory:.
    database: { file: view.database.file, sizeBytes: view.database.sizeBytes() },
    plugins: { loaded: statuses.filter((status) => status.state === 'loaded').length, total: statuses.length },
    // Empty: nothing answers messages (they are stored and wait); the page warns.
    chatters: runningChatters(statuses),
  };
}

function plugins(view: AdminHostView) {
  return {
    plugins: view.plugins.list().map((status) => ({
      id: status.id ?? null,
      name: status.name ?? null,
      version: status.version ?? null,
      builtIn: status.builtIn,
      folder: status.folder,
      state: status.state,
      stage: status.stage ?? null,
      reason: status.reason ?? null,
      compatibilityMode: status.compatibilityMode,
      tools: status.signatures.filter((signature) => signature.split(':')[1] === 'tool'),
      components: status.signatures.filter((signature) => signature.split(':')[1] !== 'tool'),
      chatters: chattersOf(status),
    })),
  };
}

async function pluginConfig(view: AdminHostView, id: string) {
  const { model, values } = await view.plugins.configOf(id);
  return { id, fields: describeConfigForm(model, values, secretFields(model)) };
}

async function savePlugin(view: AdminHostView, id: string, body: unknown): Promise<ApiResponse> {
  const values = (body as { values?: unknown } | null)?.values;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    return { status: 400, body: { error: 'the body must be {"values": {…}}' } };
  }
  const { folder, file, model } = await view.plugins.configOf(id);
  const saved = savePluginConfig(folder, model, values as Record<string, unknown>, file);
  if (!saved.ok) return { status: 422, body: { errors: saved.errors } };
  return reloadSaved(view, id, saved.warnings ?? []);
}

/** Reloads a plugin whose config was just saved; `warnings` name secrets kept in the file that do not validate. */
async function reloadSaved(view: AdminHostView, id: string, warnings: PluginConfigFieldError[]): Promise<ApiResponse> {
  try {
    const status = await view.plugins.reload(id);
    view.logger.info({ id, state: status.state }, 'plugin config saved from the web console and the plugin reloaded');
    return { status: 200, body: { saved: true, state: status.state, reason: status.reason ?? null, warnings } };
  } catch (error) {
    return { status: 200, body: { saved: true, state: 'unchanged', reason: describeError(error), warnings } };
  }
}

function events(view: AdminHostView) {
  return {
    events: view.bus
      .eventNames()
      .sort()
      .map((event) => ({
        event,
        handlers: view.bus
          .subscribers(event)
          .map((subscriber) => ({ label: subscriber.label, plugin: subscriber.owner ?? null, weight: subscriber.weight, timeout: subscriber.timeout ?? null })),
      })),
  };
}

/**
 * Model calls, tokens and latency per task and local day, for the last `days` days; and
 * `today`: each task's tokens today in the bot's time zone with its daily budget and the
 * share spent (null when the host does not say).
 */
function usage(view: AdminHostView, days: number) {
  const since = new Date(view.clock.now());
  since.setHours(0, 0, 0, 0);
  since.setDate(since.getDate() - (days - 1));
  return { days, since: since.getTime(), usage: view.database.modelCalls.dailyUsage(since.getTime()), today: view.tokensToday?.() ?? null };
}

function conversations(view: AdminHostView) {
  return {
    conversations: view.database.streams.list({ limit: 50 }).map((stream) => ({
      ...stream,
      // The bot account the conversation belongs to; null: none (the console adapter's).
      account: stream.account ?? null,
      accountNickname: stream.account === undefined || stream.account === null ? null : view.accountNickname(stream.account),
      state: view.streamState(stream.streamId) ?? null,
      phase: view.phases.phaseOf(stream.streamId)?.phase ?? null,
    })),
  };
}

const SANDBOX_STREAMS = {
  private: streamIdFor({ platform: SANDBOX_PLATFORM, chatType: 'private', groupId: undefined, userId: 'sandbox-user' }),
  group: streamIdFor({ platform: SANDBOX_PLATFORM, chatType: 'group', groupId: 'sandbox-group', userId: 'sandbox-user' }),
};

function sandboxState(view: AdminHostView, after: number) {
  return {
    lines: view.sandbox.linesAfter(after),
    chatters: runningChatters(view.plugins.list()),
    phases: {
      private: view.phases.phaseOf(SANDBOX_STREAMS.private)?.phase ?? null,
      group: view.phases.phaseOf(SANDBOX_STREAMS.group)?.phase ?? null,
    },
  };
}

async function sandboxSend(view: AdminHostView, body: unknown): Promise<ApiResponse> {
  const input = (body ?? {}) as { chat?: unknown; text?: unknown; mention?: unknown; userName?: unknown };
  if ((input.chat !== 'private' && input.chat !== 'group') || typeof input.text !== 'string' || input.text.trim() === '') {
    return { status: 400, body: { error: 'the body must be {"chat": "private" | "group", "text": "…", "mention"?: boolean}' } };
  }
  const outcome = await view.sandbox.send({
    chat: input.chat,
    text: input.text.trim(),
    mention: input.mention === true,
    userName: typeof input.userName === 'string' && input.userName !== '' ? input.userName : '沙盒用户',
  });
  return { status: outcome.status === 'invalid' ? 400 : 202, body: { status: outcome.status } };
}

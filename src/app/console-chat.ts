import type { AdapterSupervisor } from '../adapters/adapter-supervisor.js';
import { CONSOLE_PLATFORM, ConsoleAction, type ToolCallNotice } from '../adapters/console/console-actions.js';
import '../chatter/tool-call-payloads.js';
import { describeError } from '../kernel/errors/describe-error.js';
import { EventDecision } from '../kernel/event-bus/event-decision.js';
import type { Host } from './create-host.js';

/**
 * Runs first on `after_tool_call`: it only watches (PASS), and a plugin's STOP below it must
 * not hide a call from the person at the terminal.
 */
const SHOW_TOOL_CALLS_WEIGHT = 1_000_000;

/**
 * The host's side of a chat in the terminal, once the start-up report is out: tells the
 * console adapter to greet and show its prompt (now, and again whenever its process came
 * back after a restart), and shows it each tool call of a console conversation as it
 * finishes. Actions (`send_text` …) are not shown: their effect is the chat itself. Returns
 * a disposer.
 */
export function startConsoleChat(host: Host, supervisor: AdapterSupervisor): () => void {
  const tell = (action: string, params: Record<string, unknown> = {}): void => {
    // Fire and forget: a call that fails (the adapter restarting) costs the person one line.
    supervisor.call(action, params).catch((error: unknown) => host.logger.debug({ action, error: describeError(error) }, 'the console adapter did not take a notice'));
  };
  tell(ConsoleAction.START_CHAT);
  const stopListening = supervisor.onConnectionChange((connected) => {
    if (connected) tell(ConsoleAction.START_CHAT);
  });
  const unsubscribe = host.bus.subscribe(
    'after_tool_call',
    (_event, params) => {
      if (params.signature.includes(':tool:') && platformOf(host, params.stream_id) === CONSOLE_PLATFORM) {
        const notice: ToolCallNotice = {
          name: params.tool_name,
          args: params.args,
          success: params.success,
          observation: params.observation,
          errorMessage: params.success ? null : params.error_message,
        };
        tell(ConsoleAction.SHOW_TOOL_CALL, { ...notice });
      }
      return [EventDecision.PASS, params];
    },
    { weight: SHOW_TOOL_CALLS_WEIGHT, label: 'moonglass:console:show_tool_calls', owner: 'moonglass' },
  );
  return () => {
    unsubscribe();
    stopListening();
  };
}

function platformOf(host: Host, streamId: string): string | undefined {
  return host.chat.streams.getStream(streamId)?.platform ?? host.chat.database.streams.get(streamId)?.platform;
}

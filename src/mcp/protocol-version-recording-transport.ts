import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/**
 * Wraps a transport to learn the protocol version the server negotiated: the SDK `Client`
 * hands it to `setProtocolVersion` when the initialize response arrives, but does not expose
 * it otherwise. Everything else is passed through unchanged.
 */
export class ProtocolVersionRecordingTransport implements Transport {
  readonly #inner: Transport;
  #protocolVersion: string | undefined;

  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }

  /** The version the server negotiated; undefined before the initialize response. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
    this.#inner.setProtocolVersion?.(version);
  }
}

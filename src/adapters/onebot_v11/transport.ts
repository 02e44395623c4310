import type WebSocket from 'ws';

/** What a transport (reverse server or forward client) reports to the adapter. */
export interface TransportHandlers {
  /** A socket is open and ready; `selfId` when the handshake named it (reverse: `X-Self-ID`). */
  opened(socket: WebSocket, selfId: string | undefined, detail: string): void;
  /** A socket that was reported open has closed. */
  closed(socket: WebSocket, code: number, reason: string): void;
  /** One text frame arrived on an open socket. */
  frame(socket: WebSocket, text: string): void;
}

/** A running way of reaching the OneBot implementation. */
export interface OneBotTransport {
  /** Listens (reverse) or starts connecting (forward). Rejects when a server cannot listen. */
  start(): Promise<void>;
  /** Closes every socket and the server; resolves once they are closed. Safe to call twice. */
  stop(): Promise<void>;
  /** One line for the status when nothing is connected: "listening on …", "connecting to …". */
  readonly waitingDetail: string;
}

/** A frame's payload as text; OneBot sends UTF-8 JSON, occasionally in binary frames. */
export function frameText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

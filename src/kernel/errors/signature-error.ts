import { MoonglassError } from './moonglass-error.js';

/** A signature string that is not `<plugin_id>:<kind>:<name>`; `part` names what is wrong. */
export class SignatureError extends MoonglassError {
  readonly signature: unknown;
  readonly part: 'signature' | 'plugin_id' | 'kind' | 'name';
  readonly reason: string;

  constructor(signature: unknown, part: SignatureError['part'], reason: string) {
    super(
      'MG_SIGNATURE_INVALID',
      `invalid component signature ${JSON.stringify(signature) ?? String(signature)}: ${part} ${reason} ` +
        '(expected "<plugin_id>:<kind>:<name>", e.g. "neo_default_chatter:service:chat_core")',
    );
    this.signature = signature;
    this.part = part;
    this.reason = reason;
  }
}

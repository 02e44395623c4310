import { MoonglassError } from './moonglass-error.js';

/** A signature string that is not `<plugin_id>:<kind>:<name>`; `part` names what is wrong. */
export class SignatureError extends MoonglassError {
  /** The value that was given as a signature, as given (it may not be a string). */
  readonly signature: unknown;
  /** Which part is wrong: the whole `signature` (not a string, not three parts), or `plugin_id`, `kind` or `name`. */
  readonly part: 'signature' | 'plugin_id' | 'kind' | 'name';
  /** What is wrong with that part, e.g. `is empty`. */
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

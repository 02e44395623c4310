import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** A prompt template is unknown, registered twice, or misses a value in strict mode. */
export class PromptError extends MoonglassError {
  /** The template's name. */
  readonly template: string;
  /** What is wrong: not registered, registered twice, or a missing value in strict mode. */
  readonly reason: string;

  constructor(template: string, reason: string) {
    super('MG_PROMPT', `prompt template "${template}": ${reason}`);
    this.template = template;
    this.reason = reason;
  }
}

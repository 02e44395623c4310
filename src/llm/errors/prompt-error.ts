import { MoonglassError } from '../../kernel/errors/moonglass-error.js';

/** A prompt template is unknown, registered twice, or misses a value in strict mode. */
export class PromptError extends MoonglassError {
  readonly template: string;
  readonly reason: string;

  constructor(template: string, reason: string) {
    super('MG_PROMPT', `prompt template "${template}": ${reason}`);
    this.template = template;
    this.reason = reason;
  }
}

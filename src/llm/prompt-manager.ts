import type { EventBus } from '../kernel/event-bus/event-bus.js';
import { type Disposer, once } from '../kernel/scope/disposer.js';
import { PromptError } from './errors/prompt-error.js';

/** `on_prompt_build`: published before a template renders; handlers change `values` (or the template). */
export interface OnPromptBuildPayload {
  /** The template's name, prefixed by its owner: `neo_default_chatter:system`. */
  name: string;
  /** The template text about to render; a handler may replace it (a non-string is ignored). */
  template: string;
  /** The values the placeholders take; a shared object, so in-place edits count too. */
  values: Record<string, unknown>;
  /** Free-form rendering hints for handlers that coordinate. */
  policies: Record<string, unknown>;
  /**
   * Missing values are an error when true, empty text when false; a handler may change it.
   * `policies` is not read back.
   */
  strict: boolean;
}

declare module '../kernel/event-bus/event-payloads.js' {
  interface EventPayloads {
    /** A prompt template is about to render; handlers may change its values or template. */
    on_prompt_build: OnPromptBuildPayload;
  }
}

const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Renders `{name}` placeholders; `{{` and `}}` are literal braces. A missing value (one that
 * is not an own property of `values`) is an error in strict mode, empty text otherwise;
 * objects render as JSON.
 */
export function renderTemplate(name: string, template: string, values: Record<string, unknown>, strict: boolean): string {
  return template.replace(PLACEHOLDER, (match, key: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    // Own properties only: `{constructor}` or `{__proto__}` is a missing value, not Object's.
    const value = Object.hasOwn(values, key!) ? values[key!] : undefined;
    if (value === undefined || value === null) {
      if (strict) throw new PromptError(name, `no value for {${key}}`);
      return '';
    }
    return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/**
 * Named prompt templates. `build(name, values)` publishes `on_prompt_build` so that any
 * plugin can add to or change the values (or the template) before it renders.
 */
export class PromptManager {
  readonly #bus: EventBus;
  readonly #templates = new Map<string, string>();

  constructor(options: { bus: EventBus }) {
    this.#bus = options.bus;
  }

  /** Registers a template; its disposer removes it. Names are unique. */
  register(name: string, template: string): Disposer {
    if (this.#templates.has(name)) throw new PromptError(name, 'is registered already');
    this.#templates.set(name, template);
    return once(() => {
      if (this.#templates.get(name) === template) this.#templates.delete(name);
    });
  }

  /** Whether a template of this name is registered. */
  has(name: string): boolean {
    return this.#templates.has(name);
  }

  /** Renders template `name` with `values`, after `on_prompt_build` handlers had their say. */
  async build(name: string, values: Record<string, unknown>, options: { strict?: boolean; policies?: Record<string, unknown> } = {}): Promise<string> {
    const template = this.#templates.get(name);
    if (template === undefined) throw new PromptError(name, `is not registered (known: ${[...this.#templates.keys()].join(', ') || 'none'})`);
    const { params } = await this.#bus.publish('on_prompt_build', {
      name,
      template,
      values,
      policies: options.policies ?? {},
      strict: options.strict ?? false,
    });
    const finalTemplate = typeof params.template === 'string' ? params.template : template;
    const finalValues = typeof params.values === 'object' && params.values !== null ? params.values : values;
    return renderTemplate(name, finalTemplate, finalValues, params.strict === true);
  }
}

import type * as z from 'zod';

/** Who may run a command: the sender's level must be this one or higher (owner > admin > member). */
export type CommandPermission = 'owner' | 'admin' | 'member';

/** Every {@link CommandPermission}, highest first. */
export const COMMAND_PERMISSIONS: readonly CommandPermission[] = ['owner', 'admin', 'member'];

/** Positional arguments: the keys, in declaration order, are the arguments' order on the line. */
export type CommandArgsShape = Readonly<Record<string, z.ZodType>>;

/** Named options (`--name value`, `--name=value`; a boolean one is a flag, `--name`). */
export type CommandOptionsShape = Readonly<Record<string, z.ZodType>>;

/** What `@command(name, …)` takes besides the name. */
export interface CommandDeclaration<Args extends CommandArgsShape = CommandArgsShape, Options extends CommandOptionsShape = CommandOptionsShape> {
  /** One line for `/help` (in the language of the bot's users). */
  description: string;
  /** Other names that run it (`/r` for `/roll`, `掷骰`). */
  aliases?: readonly string[];
  /** Positional arguments, in order: `{ count: z.coerce.number().int().min(1).describe('…') }`. */
  args?: Args;
  /**
   * The last argument takes the rest of the line as written (spaces and quotes kept); it must
   * accept a string. Default false: words beyond the declared arguments are an error.
   */
  rest?: boolean;
  /** Named options: `{ times: z.coerce.number().default(1), verbose: z.boolean().optional() }`. */
  options?: Options;
  /** One-letter names of options: `{ v: 'verbose' }` makes `-v` mean `--verbose`. */
  short?: Readonly<Record<string, Extract<keyof Options, string>>>;
  /** Default `member`: everyone but guests. */
  permission?: CommandPermission;
  /** The message also reaches the chatter after the command ran. Default false. */
  passThrough?: boolean;
}

/** What `@command` records on a class: `<plugin>:command:<name>`. */
export interface CommandMetadata {
  /** Which decorator recorded it; the signature's middle part. */
  kind: 'command';
  /**
   * The command's name, typed after a command prefix (`bot.toml [commands] prefixes`, e.g. `/`);
   * the signature's last part.
   */
  name: string;
  /** One line for `/help`. */
  description: string;
  /** Other names that run it; `[]` when none. */
  aliases: readonly string[];
  /** Positional arguments by name, in order; `{}` when none. */
  args: CommandArgsShape;
  /** Whether the last argument takes the rest of the line as written. */
  rest: boolean;
  /** Named options by name; `{}` when none. */
  options: CommandOptionsShape;
  /** One-letter option names, mapped to the option they stand for. */
  short: Readonly<Record<string, string>>;
  /** The lowest level that may run it. */
  permission: CommandPermission;
  /** Whether the message also reaches the chatter after the command ran. */
  passThrough: boolean;
}

/** The parsed, validated input of a command declared with `declaration` (see `defineCommand`). */
export type CommandInput<Declaration> =
  Declaration extends CommandDeclaration<infer Args, infer Options>
    ? {
        /** Each positional argument, parsed by its schema. */
        args: { [Key in keyof Args]: z.output<Args[Key]> };
        /** Each named option, parsed by its schema (defaults applied). */
        options: { [Key in keyof Options]: z.output<Options[Key]> };
      }
    : never;

/**
 * Returns its argument; exists so `typeof` of the result keeps the schemas' types for
 * `CommandInput<typeof declaration>`.
 */
export function defineCommand<Args extends CommandArgsShape = {}, Options extends CommandOptionsShape = {}>(
  declaration: CommandDeclaration<Args, Options>,
): CommandDeclaration<Args, Options> {
  return declaration;
}

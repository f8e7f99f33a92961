import { Option, type OptionMetadata } from 'nest-commander';

/** One option of a command: nest-commander's metadata and how its value is read. */
export interface CliOption extends OptionMetadata {
  /** The value from its text; without it, the text as given. */
  parse?: (value: string) => unknown;
}

/**
 * A command's options as data, in the order its help lists them: each becomes a method of the
 * command marked with nest-commander's @Option, which reads the option's value.
 */
export function CliOptions(...options: CliOption[]): ClassDecorator {
  return (target) => {
    const prototype = target.prototype as object;
    options.forEach(({ parse, ...meta }, i) => {
      // A function of its own per option: @Option keeps its metadata on the function.
      const value = (text: string) => (parse ? parse(text) : text);
      const descriptor = { value, writable: true, configurable: true, enumerable: false };
      const name = `parseOption${i + 1}`;
      Object.defineProperty(prototype, name, descriptor);
      Option(meta)(prototype, name, descriptor);
    });
  };
}

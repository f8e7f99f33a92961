import { MSG } from '../../kernel/messages';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * Counts a JSON text's values (containers included, keys not) and nesting while it streams in,
 * refusing a body at the first byte over a limit (docs/api.md, Conventions: body limits). It
 * never judges validity (JSON.parse does); for valid JSON its count is exact.
 */
export class JsonScanner {
  private values = 0;
  /** Open containers, innermost last: true for an array. */
  private readonly stack: boolean[] = [];
  private inString = false;
  private escaped = false;
  private expectValue = true;

  constructor(
    private readonly maxValues: number,
    private readonly maxDepth: number,
  ) {}

  /** Scans the next bytes; the refusal's message, or null while within the limits. */
  feed(chunk: Uint8Array): string | null {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
        continue;
      }
      if (isSpace(b)) continue;
      if (this.expectValue && b !== CLOSE_ARRAY) {
        this.expectValue = false;
        if (++this.values > this.maxValues) return MSG.tooManyValues(this.maxValues);
      }
      switch (b) {
        case QUOTE:
          this.inString = true;
          break;
        case OPEN_ARRAY:
        case OPEN_OBJECT:
          this.stack.push(b === OPEN_ARRAY);
          if (this.stack.length > this.maxDepth) return MSG.tooDeep(this.maxDepth);
          this.expectValue = b === OPEN_ARRAY;
          break;
        case CLOSE_ARRAY:
        case CLOSE_OBJECT:
          this.stack.pop();
          this.expectValue = false;
          break;
        case COMMA:
          this.expectValue = this.stack.at(-1) === true;
          break;
        case COLON:
          this.expectValue = true;
          break;
      }
    }
    return null;
  }
}

// Keys that would let a JSON body reach an object's prototype through class-transformer.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * JSON.parse, then one walk that removes the keys that could reach a prototype (JSON.parse makes
 * `__proto__` an own property, harmless until something copies it). The scanner has already
 * bounded the values and depth, so the walk is short and the parse cannot overflow the stack.
 * Throws SyntaxError on malformed text.
 */
export function parseJsonBody(text: string): unknown {
  const body: unknown = JSON.parse(text);
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (FORBIDDEN_KEYS.has(key)) delete record[key];
      else stack.push(record[key]);
    }
  }
  return body;
}

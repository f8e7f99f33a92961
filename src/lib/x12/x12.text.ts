import { DEFAULT_SEPARATORS, Separators } from './x12.segment';

/**
 * A value made safe for X12: separators and control characters become spaces, runs of spaces
 * collapse, and it is cut to `max` characters. For names and ids that come from users.
 */
export function x12Text(
  value: string,
  max: number,
  separators: Separators = DEFAULT_SEPARATORS,
): string {
  let text = value;
  for (const c of Object.values(separators)) if (c) text = text.split(c).join(' ');
  text = [...text].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('');
  text = text.replace(/\s+/g, ' ').trim();
  return text.slice(0, max).trim();
}

/** Letters NFKD does not decompose into a base letter and marks (docs/api.md, Claims: `Núñez` → `NUNEZ`). */
const LATIN_LETTERS: Readonly<Record<string, string>> = {
  ß: 'SS',
  Æ: 'AE',
  æ: 'AE',
  Œ: 'OE',
  œ: 'OE',
  Ø: 'O',
  ø: 'O',
  Ł: 'L',
  ł: 'L',
  Đ: 'D',
  đ: 'D',
  Ð: 'D',
  ð: 'D',
  Þ: 'TH',
  þ: 'TH',
  ı: 'I',
};

/**
 * Text in the X12 basic character set (upper-case letters, digits, space and
 * `! " & ' ( ) * + , - . / : ; ? =`), as clearinghouses' edits require of names and addresses:
 * accents are dropped (`Núñez` → `NUNEZ`), a few letters spelled out (`ß` → `SS`), anything else
 * outside the set becomes a space; then as `x12Text` (separators out, spaces collapsed, cut).
 */
export function x12BasicText(
  value: string,
  max: number,
  separators: Separators = DEFAULT_SEPARATORS,
): string {
  const latin = withoutAccents(value)
    .toUpperCase()
    .replace(/[^A-Z0-9 !"&'()*+,\-./:;?=]/g, ' ');
  return x12Text(latin, max, separators);
}

/**
 * A name without its accents, as X12 names carry it (`Núñez` → `Nunez`, `ß` → `SS`); letters of
 * other scripts are kept as they are. Names compared across systems (docs/api.md, Universal
 * Search insurer by insurer: reuse) fold the same way.
 */
export function withoutAccents(value: string): string {
  return [...value]
    .map((c) => LATIN_LETTERS[c] ?? c)
    .join('')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
}

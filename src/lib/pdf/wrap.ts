/** Control characters a font cannot draw become spaces. */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/**
 * Lines no wider than `width` as `measure` measures them: each of the text's own lines, broken
 * between words, and a word wider than a line broken where it must. Never an empty list.
 */
export function wrapText(text: string, measure: (s: string) => number, width: number): string[] {
  const out: string[] = [];
  for (const own of text.split('\n')) {
    let line = '';
    for (const word of clean(own).split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate) <= width) {
        line = candidate;
        continue;
      }
      if (line) out.push(line);
      line = word;
      while (measure(line) > width && line.length > 1) {
        // The longest head that fits (at least one character), found by halving.
        let [fits, over] = [1, line.length];
        while (over - fits > 1) {
          const mid = (fits + over) >> 1;
          if (measure(line.slice(0, mid)) <= width) fits = mid;
          else over = mid;
        }
        out.push(line.slice(0, fits));
        line = line.slice(fits);
      }
    }
    out.push(line);
  }
  return out;
}

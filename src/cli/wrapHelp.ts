// --help for the terminal it is read on: commander wraps its own lines to the width, and this
// rewraps the rest (the notes each command adds after its options, written as paragraphs) to the
// same width at spaces, never inside a word (only a word longer than a whole line is cut).
// Paragraphs are runs of unindented lines; indented lines (lists, examples, commander's option
// rows) are kept as lines, and when too long continue under their text column.

export function wrapHelp(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(...wrapWords(paragraph.join(' '), width, '', ''));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      flush();
      out.push(line);
    } else if (!/^\s/.test(line)) {
      paragraph.push(line.trimEnd());
      if (line.trimEnd().endsWith(':')) flush(); // a heading before a list
    } else {
      flush();
      out.push(...wrapIndented(line.trimEnd(), width));
    }
  }
  flush();
  return out.join('\n');
}

/** An indented line: continued under its text column (after the last gap of 2+ spaces, as in
 *  `  --db <file>   the file`), or, when that column is too far right, broken at the last space
 *  that fits with its own spacing kept and continued 4 further in. */
function wrapIndented(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const indent = /^\s*/.exec(line)![0];
  const gaps = [...line.slice(indent.length).matchAll(/ {2,}/g)];
  const last = gaps.at(-1);
  const column = last?.index === undefined ? undefined : indent.length + last.index + last[0].length;
  if (column !== undefined && column <= width * 0.6 && column < line.length) {
    const [first, ...rest] = wrapWords(line.slice(column), width - column, '', '');
    return [`${line.slice(0, column)}${first ?? ''}`, ...rest.map((l) => `${' '.repeat(column)}${l}`)];
  }
  const cut = line.lastIndexOf(' ', width);
  if (cut <= indent.length) return wrapWords(line.slice(indent.length), width, indent, ' '.repeat(indent.length + 4));
  return [line.slice(0, cut).trimEnd(), ...wrapWords(line.slice(cut + 1), width, ' '.repeat(indent.length + 4), ' '.repeat(indent.length + 4))];
}

/** Greedy wrap at spaces; `first` and `next` prefix the first and the following lines. */
export function wrapWords(text: string, width: number, first: string, next: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (let word of text.split(/ +/).filter((w) => w !== '')) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = next;
      empty = true;
    }
    if (!empty) {
      line += ` ${word}`;
      continue;
    }
    // a word longer than a whole line (a URL, a path) is cut: the only place this happens
    while (word.length > Math.max(1, width - line.length)) {
      const room = Math.max(1, width - line.length);
      lines.push(`${line}${word.slice(0, room)}`);
      word = word.slice(room);
      line = next;
    }
    line += word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

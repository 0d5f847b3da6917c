// The fenced blocks of the project's Markdown (README.md and docs/), for the tests that run them
// as written and check that every fence is closed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface FencedBlock {
  /** The file, relative to the repository. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** What follows the opening fence (`sh`, `sql`, `python`, '' …). */
  lang: string;
  /** The lines between the fences. */
  lines: string[];
}

export interface FenceProblem {
  file: string;
  line: number;
  problem: string;
}

/** README.md and every Markdown file under docs/, in a stable order. */
export function markdownFiles(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(REPO, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(REPO, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** A file's fenced blocks, and what is wrong with its fences: a closing fence with text after it
 *  (GitHub then renders the rest of the file as code) or a block never closed. */
export function fencedBlocks(file: string): { blocks: FencedBlock[]; problems: FenceProblem[] } {
  const text = readFileSync(join(REPO, file), 'utf8').split('\n');
  const blocks: FencedBlock[] = [];
  const problems: FenceProblem[] = [];
  let open: FencedBlock | undefined;
  text.forEach((raw, i) => {
    const m = /^(\s*)```(.*)$/.exec(raw);
    if (!m) {
      open?.lines.push(raw);
      return;
    }
    if (open) {
      if (m[2]!.trim() !== '') problems.push({ file, line: i + 1, problem: `a closing fence with text after it: ${raw.trim()}` });
      blocks.push(open);
      open = undefined;
    } else {
      open = { file, line: i + 1, lang: m[2]!.trim(), lines: [] };
    }
  });
  if (open) problems.push({ file, line: open.line, problem: 'a fence that is never closed' });
  return { blocks, problems };
}

export interface ShellCommand {
  /** 1-based line where it starts. */
  line: number;
  text: string;
  /** The exit status the block says it ends with (`# exit 3` at the end of its line), else 0. */
  exit: number;
  /** Ends in `&`: started in the background for the commands after it. */
  background: boolean;
}

/** The commands of a `sh` block: a line each, a trailing `\` or an open double quote continuing it
 *  on the next; comment lines and blank lines are not commands. */
export function shellCommands(block: FencedBlock): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let pending: { line: number; text: string } | undefined;
  block.lines.forEach((raw, i) => {
    const line = block.line + 1 + i;
    if (!pending && (raw.trim() === '' || /^\s*#/.test(raw))) return;
    pending = pending ? { ...pending, text: `${pending.text}\n${raw}` } : { line, text: raw };
    const quotes = (pending.text.replace(/\\"/g, '').match(/"/g) ?? []).length;
    if (quotes % 2 === 1 || /\\$/.test(raw)) return;
    const exit = /#\s*exit (\d+)\b[^"']*$/.exec(pending.text);
    const text = pending.text.replace(/\s+#[^"'\n]*$/, '').trim();
    commands.push({ line: pending.line, text: text.replace(/\s*&$/, ''), exit: exit ? Number(exit[1]) : 0, background: /&$/.test(text) });
    pending = undefined;
  });
  return commands;
}

/** Why a block is not run by the tests, when it says so (a comment line `# not run by the tests: …`). */
export function notRunReason(block: FencedBlock): string | undefined {
  for (const line of block.lines) {
    const m = /^\s*#\s*not run by the tests:\s*(.*)$/.exec(line);
    if (m) return m[1]!.trim();
  }
  return undefined;
}

export const relativeToRepo = (path: string): string => relative(REPO, path);

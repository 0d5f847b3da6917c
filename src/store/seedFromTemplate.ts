// A new warehouse file as a copy of the build's template (paths.ts, warehouseTemplatePath).
import { copyFileSync, existsSync, linkSync, rmSync } from 'node:fs';

export /** A file that does not exist yet (nor its WAL) becomes a copy of the build's template: the schema
 *  work of a new file (the calendar, the views and macros, a commit and a checkpoint) is done
 *  once, at build time; prepareSchema then finds it current, or brings an
 *  older template up to date. The copy is made beside the file and linked into place, which fails
 *  if the file appeared meanwhile: a file is never half-copied nor replaced. Anything amiss (no
 *  template, no hard links here): false, and the file is made the usual way. */
function seedFromTemplate(path: string, template: string): boolean {
  if (existsSync(path) || existsSync(`${path}.wal`) || !existsSync(template)) return false;
  const copy = `${path}.seed-${process.pid}.tmp`;
  try {
    copyFileSync(template, copy);
    linkSync(copy, path);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(copy, { force: true });
  }
}

// The catalog the program validates against: src/events/event-catalog.txt, read and parsed once.
// It is found from the package root, so src/ (vitest) and dist/ (the built CLI) read the same file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import type { EventCatalog } from './EventCatalog.js';
import { EventCatalogError } from './errors.js';
import { parseEventCatalog } from './parseEventCatalog.js';

let cached: EventCatalog | undefined;

export const eventCatalogFile = (): string => join(packageRoot(), 'src', 'events', 'event-catalog.txt');

export function loadEventCatalog(): EventCatalog {
  if (cached) return cached;
  const file = eventCatalogFile();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new EventCatalogError(file, undefined, 'cannot read the event catalog', { cause });
  }
  cached = parseEventCatalog(text, file);
  return cached;
}

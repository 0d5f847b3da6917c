// Reads the catalog data file (src/events/event-catalog.txt; its header explains the notation) into
// an EventCatalog: one pass collects the lines, a second resolves inherited field lists and
// structure names, so an entry may refer to one written further down.
import {
  eventId,
  type EventCatalog,
  type EventSpec,
  type FieldSpec,
  type FieldType,
  type ScalarKind,
  type StructSpec,
} from './EventCatalog.js';
import { EventCatalogError } from './errors.js';

interface RawField {
  name: string;
  required: boolean;
  notation: string;
}

interface Place {
  line: number;
  catalog: string;
  section: string;
}

interface RawStruct extends Place {
  name: string;
  fields: RawField[];
}

interface RawGroup extends Place {
  name: string;
  fields: RawField[];
}

interface RawEvent extends Place {
  eventType: string;
  version: string;
  definition: string;
  /** "v1", "core", "base", "creation.started", "checked_out v1"; undefined for a plain list. */
  inherits: string | undefined;
  own: RawField[];
  partial: boolean;
}

const SCALARS: Record<string, ScalarKind> = { s: 'string', i: 'integer', b: 'boolean', n: 'number', o: 'object' };
const FIELD = /^([a-z][a-z0-9_]*)(\*| +)(\S+)$/;
const VERSION = /^(v\d+|\d+(\.\d+)*)$/;
const EVENT_TYPE = /^[a-z][a-z0-9_.-]*$/;
// "same fields as <ref>" | "[the ]<ref> fields", optionally followed by " plus <own fields>".
const INHERITED = /^(?:same fields as ([^,*]+?)|(?:the )?([^,*]+?) fields)(?: plus (.+))?$/;

export function parseEventCatalog(text: string, file = 'event catalog'): EventCatalog {
  const fail = (line: number | undefined, message: string): never => {
    throw new EventCatalogError(file, line, message);
  };

  // Pass 1: the lines.
  const rawStructs = new Map<string, RawStruct>();
  const groups: RawGroup[] = [];
  const rawEvents = new Map<string, RawEvent>();
  let catalog: string | undefined;
  let section = '';
  text.split(/\r?\n/).forEach((content, index) => {
    const line = index + 1;
    const entry = content.trim();
    if (entry === '' || entry.startsWith('#')) return;
    let m: RegExpExecArray | null;
    if ((m = /^catalog (\S+) (\S+)$/.exec(entry))) {
      catalog = m[1]!;
      section = '';
      return;
    }
    if (catalog === undefined) return fail(line, `'${entry}' comes before the first 'catalog' line`);
    const place = { line, catalog, section };
    if ((m = /^section (.+)$/.exec(entry))) {
      section = m[1]!;
    } else if ((m = /^struct ([A-Z][A-Za-z0-9]*): (.+)$/.exec(entry))) {
      const name = m[1]!;
      if (rawStructs.has(name)) fail(line, `structure ${name} is defined twice`);
      const list = parseFieldList(m[2]!, line, fail);
      if (list.partial) fail(line, `a structure cannot end with '...'`);
      rawStructs.set(name, { ...place, name, fields: list.fields });
    } else if ((m = /^fields ([a-z][a-z ]*[a-z]): (.+)$/.exec(entry))) {
      const name = m[1]!;
      if (groups.some((g) => g.catalog === catalog && g.name === name)) fail(line, `fields '${name}' defined twice`);
      const list = parseFieldList(m[2]!, line, fail);
      if (list.partial) fail(line, `a field group cannot end with '...'`);
      groups.push({ ...place, name, fields: list.fields });
    } else if ((m = /^event (\S+) (\S+): (.+)$/.exec(entry))) {
      const eventType = m[1]!;
      const version = m[2]!;
      const definition = m[3]!;
      if (!EVENT_TYPE.test(eventType)) fail(line, `'${eventType}' is not an event type`);
      if (!VERSION.test(version)) fail(line, `'${version}' is not a payload version (v1, v2, 1.0.0)`);
      const id = eventId(eventType, version);
      if (rawEvents.has(id)) fail(line, `event ${id} is defined twice`);
      const inherited = INHERITED.exec(definition);
      const list = inherited ? (inherited[3] ?? '') : definition;
      const own = list === '' ? { fields: [], partial: false } : parseFieldList(list, line, fail);
      rawEvents.set(id, {
        ...place,
        eventType,
        version,
        definition,
        inherits: inherited ? (inherited[1] ?? inherited[2]) : undefined,
        own: own.fields,
        partial: own.partial,
      });
    } else {
      fail(line, `cannot read '${entry}' (expected catalog, section, struct, fields or event)`);
    }
  });

  const versions = new Map<string, string[]>();
  for (const raw of rawEvents.values()) {
    const list = versions.get(raw.eventType) ?? [];
    list.push(raw.version);
    versions.set(raw.eventType, list);
  }

  // Pass 2: structures (which may refer to each other), then events.
  const structures = new Map<string, StructSpec>();
  const resolvingStructs = new Set<string>();
  const resolveStruct = (name: string, line: number): StructSpec => {
    const done = structures.get(name);
    if (done) return done;
    const raw = rawStructs.get(name) ?? fail(line, `unknown structure ${name}`);
    if (resolvingStructs.has(name)) fail(raw.line, `structure ${name} contains itself`);
    resolvingStructs.add(name);
    const struct: StructSpec = { name, catalog: raw.catalog, fields: resolveFields(raw.fields, raw.line) };
    resolvingStructs.delete(name);
    structures.set(name, struct);
    return struct;
  };

  const resolveType = (notation: string, line: number): FieldType => {
    const scalar = SCALARS[notation];
    if (scalar) return { kind: scalar };
    const array = /^\[(.+)\]$/.exec(notation);
    if (array) return { kind: 'array', items: resolveType(array[1]!, line) };
    if (/^[A-Z][A-Za-z0-9]*$/.test(notation)) return { kind: 'struct', struct: resolveStruct(notation, line) };
    return fail(line, `'${notation}' is not a type (s, i, b, n, o, [T] or a structure name)`);
  };

  const resolveFields = (fields: RawField[], line: number): FieldSpec[] =>
    fields.map((f) => ({ ...f, type: resolveType(f.notation, line) }));

  const events = new Map<string, EventSpec>();
  const resolvingEvents = new Set<string>();
  const resolveEvent = (id: string, line: number): EventSpec => {
    const done = events.get(id);
    if (done) return done;
    const raw = rawEvents.get(id) ?? fail(line, `unknown event ${id}`);
    if (resolvingEvents.has(id)) fail(raw.line, `event ${id} inherits from itself`);
    resolvingEvents.add(id);
    let fields: FieldSpec[] = [];
    let partial = raw.partial;
    if (raw.inherits !== undefined) {
      const base = resolveInherited(raw);
      fields = [...base.fields];
      partial ||= base.partial;
    }
    for (const field of resolveFields(raw.own, raw.line)) {
      if (fields.some((f) => f.name === field.name)) fail(raw.line, `${id}: field ${field.name} appears twice`);
      fields.push(field);
    }
    const spec: EventSpec = {
      id,
      eventType: raw.eventType,
      version: raw.version,
      catalog: raw.catalog,
      section: raw.section,
      fields,
      partial,
      definition: raw.definition,
    };
    resolvingEvents.delete(id);
    events.set(id, spec);
    return spec;
  };

  // What "v1 fields", "base fields", "the accepted fields", "same fields as checked_out v1" mean.
  const resolveInherited = (raw: RawEvent): { fields: readonly FieldSpec[]; partial: boolean } => {
    const ref = raw.inherits!;
    if (VERSION.test(ref)) return resolveEvent(eventId(raw.eventType, ref), raw.line);
    const ownCatalog = groups.filter((g) => g.catalog === raw.catalog);
    const group =
      ownCatalog.find((g) => g.name === ref) ??
      single(ownCatalog.filter((g) => g.section === raw.section && g.name.endsWith(` ${ref}`)));
    if (group) return { fields: resolveFields(group.fields, group.line), partial: false };
    // A sibling event type: the reference replaces as many trailing segments of this type.
    const [name, version, ...rest] = ref.split(' ');
    const segments = raw.eventType.split('.');
    const replaced = name!.split('.');
    if (rest.length > 0 || replaced.length >= segments.length) fail(raw.line, `cannot resolve '${ref} fields'`);
    const sibling = [...segments.slice(0, segments.length - replaced.length), ...replaced].join('.');
    const known =
      versions.get(sibling) ?? fail(raw.line, `'${ref}' names no field group or event type (tried ${sibling})`);
    if (version === undefined && known.length !== 1) {
      fail(raw.line, `'${ref}' is ambiguous: ${sibling} has versions ${known.join(', ')}`);
    }
    return resolveEvent(eventId(sibling, version ?? known[0]!), raw.line);
  };

  for (const name of rawStructs.keys()) resolveStruct(name, rawStructs.get(name)!.line);
  for (const id of rawEvents.keys()) resolveEvent(id, rawEvents.get(id)!.line);
  // Keep catalog order (resolution may have finished a referenced event first).
  const ordered = new Map([...rawEvents.keys()].map((id) => [id, events.get(id)!]));
  return { events: ordered, versions, structures };
}

function single<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

function parseFieldList(
  text: string,
  line: number,
  fail: (line: number, message: string) => never,
): { fields: RawField[]; partial: boolean } {
  const items = text.split(',').map((item) => item.trim());
  const partial = items[items.length - 1] === '...';
  if (partial) items.pop();
  const fields = items.map((item): RawField => {
    const m = FIELD.exec(item) ?? fail(line, `cannot read field '${item}' (expected name*T or name T)`);
    return { name: m[1]!, required: m[2] === '*', notation: m[3]! };
  });
  const names = new Set<string>();
  for (const f of fields) {
    if (names.has(f.name)) fail(line, `field ${f.name} appears twice`);
    names.add(f.name);
  }
  return { fields, partial };
}

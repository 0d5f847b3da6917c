// The event catalog against the spec text (counted and read here with regexes of this file, not the
// parser's), then validation: a generated payload per event id, each required field removed, each
// field given a wrong type; the envelope; and the JSON Lines stream (line numbers, bytes, memory).
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FieldSpec, FieldType } from '../src/events/EventCatalog.js';
import { EventCatalogError, EventInputError } from '../src/events/errors.js';
import { loadEventCatalog } from '../src/events/loadEventCatalog.js';
import { parseEventCatalog } from '../src/events/parseEventCatalog.js';
import { samplePayload, sampleValue } from '../src/events/sampleEvents.js';
import { validateEvent, validateEventText } from '../src/events/validateEvent.js';
import { validateEventLines, type ValidatedLine } from '../src/events/validateEventLines.js';

const SPEC_DIR = fileURLToPath(new URL('./fixtures/spec/', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/events/', import.meta.url));
const catalog = loadEventCatalog();

// ---------------------------------------------------------------------------------------------
// The spec, read independently of src/events/parseEventCatalog.ts.

type Field = [name: string, required: boolean, notation: string];

interface SpecEvent {
  id: string;
  type: string;
  version: string;
  /** The text after `<type> <version>: `; undefined when the fields come from a shared list. */
  rhs?: string;
  fields?: Field[];
  partial?: boolean;
}

function parseList(list: string): Field[] {
  return list.split(', ').map((item): Field => {
    const m = /^(\w+)(\*| )(\S+)$/.exec(item);
    if (!m) throw new Error(`spec field '${item}'`);
    return [m[1]!, m[2] === '*', m[3]!];
  });
}

function eventsSection(file: string): string {
  const doc = readFileSync(`${SPEC_DIR}${file}`, 'utf8');
  const start = doc.indexOf('\n## Events\n');
  if (start < 0) throw new Error(`${file}: no Events section`);
  return doc.slice(start);
}

function specEvents(text: string): SpecEvent[] {
  const events: SpecEvent[] = [];
  for (const m of text.matchAll(/^- ([a-z][\w.-]*) (?:(v\d+)|version (\d+(?:\.\d+)+)): (.+)$/gm)) {
    const version = m[2] ?? m[3]!;
    events.push({ id: `${m[1]}-${version}`, type: m[1]!, version, rhs: m[4]! });
  }
  const common = /^All have version (v\d+) and one common payload: (.+)\.$/m.exec(text);
  if (common) {
    const list = text.slice(text.indexOf('Event types with that payload:'));
    for (const m of list.matchAll(/^- ([a-z][\w.-]*)$/gm)) {
      events.push({ id: `${m[1]}-${common[1]}`, type: m[1]!, version: common[1]!, fields: parseList(common[2]!) });
    }
  }
  const partial = /^The event type (\S+) (v\d+) starts with the fields (.+?)\. /m.exec(text);
  if (partial) {
    events.push({
      id: `${partial[1]}-${partial[2]}`,
      type: partial[1]!,
      version: partial[2]!,
      fields: parseList(partial[3]!),
      partial: true,
    });
  }
  return events;
}

const specA = eventsSection('event-catalog-a.md');
const specB = eventsSection('event-catalog-b.md');
const spec = { A: specEvents(specA), B: specEvents(specB) };
const specById = new Map([...spec.A, ...spec.B].map((e) => [e.id, e]));

// How the spec's "… fields" phrases resolve, written out by hand.
const SIBLINGS: Record<string, string> = {
  'creation.started': 'contracts.journeys.creation.started-v1',
  'checked_out v1': 'fra.account_application.checked_out-v1',
  'initiated v2': 'fra.account_application.initiated-v2',
  'cancellation-requested v2': 'lifecycle.leave-supplier.cancellation-requested-v2',
  'resolution_cancelled v1': 'meter_data_quality.resolution_cancelled-v1',
  accepted: 'billing.rebate.accepted-v1',
  'appoint_mam.requested': 'meterpoint.gas.appoint_mam.requested-v1',
};
const GROUPS = new Map<string, Field[]>();
GROUPS.set('core', parseList(/^The user-shaped core fields are: (.+)\.$/m.exec(specA)![1]!));
for (const m of `${specA}\n${specB}`.matchAll(/^(?:- )?(\w+) base fields: (.+?)\.?$/gm)) {
  GROUPS.set(`${m[1]!.toLowerCase()} base`, parseList(m[2]!));
}
GROUPS.set('base', GROUPS.get('deposit base')!); // the only "base fields" of its section

function expectedFields(id: string): { fields: Field[]; partial: boolean } {
  const event = specById.get(id);
  if (!event) throw new Error(`spec has no ${id}`);
  if (event.fields) return { fields: event.fields, partial: event.partial === true };
  const rhs = event.rhs!;
  const same = /^same fields as (.+)$/.exec(rhs);
  if (same) return expectedFields(SIBLINGS[same[1]!] ?? `unresolved '${same[1]}'`);
  const inherited = /^(?:the )?(.+?) fields(?: plus (.+))?$/.exec(rhs);
  if (!inherited) return { fields: parseList(rhs), partial: false };
  const ref = inherited[1]!;
  const base = /^v\d+$/.test(ref)
    ? expectedFields(`${event.type}-${ref}`).fields
    : SIBLINGS[ref]
      ? expectedFields(SIBLINGS[ref]).fields
      : GROUPS.get(ref);
  if (!base) throw new Error(`${id}: unresolved '${ref} fields'`);
  return { fields: [...base, ...(inherited[2] ? parseList(inherited[2]) : [])], partial: false };
}

const triples = (fields: readonly FieldSpec[]): Field[] => fields.map((f) => [f.name, f.required, f.notation]);

describe('the catalog data against the spec text', () => {
  it('finds the expected number of event types and ids in each document', () => {
    // Counted by hand from the documents; guards this file's own regexes.
    expect(spec.A.length).toBe(210);
    expect(new Set(spec.A.map((e) => e.type)).size).toBe(196);
    expect(spec.B.length).toBe(63);
    expect(new Set(spec.B.map((e) => e.type)).size).toBe(60);
    expect(specById.size).toBe(273);
  });

  it.each(['A', 'B'] as const)('holds every id of catalog %s, and no other', (letter) => {
    const inData = [...catalog.events.values()].filter((e) => e.catalog === letter).map((e) => e.id);
    expect(inData.sort()).toEqual(spec[letter].map((e) => e.id).sort());
  });

  it('has no ids outside the two catalogs and agrees on the versions of each type', () => {
    expect([...catalog.events.keys()].sort()).toEqual([...specById.keys()].sort());
    for (const [type, versions] of catalog.versions) {
      const inSpec = [...specById.values()].filter((e) => e.type === type).map((e) => e.version);
      expect(versions, type).toEqual(inSpec);
    }
    expect(catalog.events.get('lifecycle.support-site.sale-1.0.0')?.version).toBe('1.0.0');
  });

  it('keeps the types catalog A says are in document 3 in catalog B', () => {
    const moved = [...specA.matchAll(/^- (\S+) is in document 3\.$/gm)].map((m) => m[1]!);
    expect(moved).toEqual(['loyalty-points.user-role-removal', 'messaging.push-notification.token-unregistered']);
    for (const type of moved) {
      expect(catalog.events.get(`${type}-v1`)?.catalog).toBe('B');
    }
  });

  it('gives every event id the fields of the spec, inherited lists resolved', () => {
    for (const [id, event] of catalog.events) {
      const expected = expectedFields(id);
      expect(triples(event.fields), id).toEqual(expected.fields);
      expect(event.partial, id).toBe(expected.partial);
    }
  });

  it('gives every shared structure the fields of the spec', () => {
    const names: string[] = [];
    for (const text of [specA, specB]) {
      const start = text.indexOf('### Shared structures');
      const section = text.slice(start, text.indexOf('\n### ', start + 1));
      for (const m of section.matchAll(/^- (.+)$/gm)) {
        for (const part of m[1]!.split('; ')) {
          const s = /^([A-Z]\w*)(?: \(all optional\))?: (.+)$/.exec(part);
          if (!s) throw new Error(`spec structure '${part}'`);
          names.push(s[1]!);
          expect(triples(catalog.structures.get(s[1]!)?.fields ?? []), s[1]).toEqual(parseList(s[2]!));
        }
      }
    }
    expect([...catalog.structures.keys()].sort()).toEqual(names.sort());
  });

  it('resolves the catalogs’ phrases as the catalog means them', () => {
    const names = (id: string) => catalog.events.get(id)!.fields.map((f) => f.name);
    expect(names('billing.billing_document_representation.dispatched-v3')).toEqual([
      'account_number',
      'billing_document_id',
      'billing_document_identifier',
      'billing_document_representation_dispatch_id',
      'billing_document_representations_id',
      'support_user_id',
    ]);
    expect(names('deposit_agreement.withdrawn-v1')).toEqual([
      'deposit_key',
      'reason',
      'amount',
      'account_number',
      'ledger_identifier',
      'withdrawn_at',
    ]);
    expect(names('contracts.journeys.termination.started-v1')).toEqual(
      names('contracts.journeys.creation.started-v1'),
    );
    expect(names('billing.rebate.declined-v1')).toEqual([...names('billing.rebate.accepted-v1'), 'decline_reason']);
    const disputed = [...catalog.events.values()].filter((e) => e.eventType.startsWith('meterpoint.gas.disputed_'));
    expect(disputed).toHaveLength(9);
    expect(disputed.filter((e) => e.fields.length === 22)).toHaveLength(8);
    expect(disputed.filter((e) => e.partial).map((e) => e.id)).toEqual([
      'meterpoint.gas.disputed_opening_reading.accepted.other_supplier-v1',
    ]);
  });

  it('refuses a data file that does not resolve, naming the line', () => {
    const bad = (text: string) => () => parseEventCatalog(text, 'x.txt');
    expect(bad('catalog A a.md\nevent a.b v1: x*q')).toThrow(/x\.txt:2: 'q' is not a type/);
    expect(bad('catalog A a.md\nevent a.b v2: v1 fields plus x*s')).toThrow(EventCatalogError);
    expect(bad('catalog A a.md\nevent a.b v1: x*s, x i')).toThrow(/x\.txt:2: field x appears twice/);
    expect(bad('catalog A a.md\nstruct S: t*T\nstruct T: s*S')).toThrow(/contains itself/);
    expect(bad('catalog A a.md\nevent a.b v1: x*s\nevent a.b v2: y*s\nevent a.c v1: same fields as b')).toThrow(
      /x\.txt:4: 'b' is ambiguous: a\.b has versions v1, v2/,
    );
    expect(bad('catalog A a.md\nevent a.c v1: the d fields plus x*s')).toThrow(/names no field group or event type/);
    expect(parseEventCatalog('catalog A a.md\nevent a.b v1: x*s\nevent a.c v1: same fields as b').events.get('a.c-v1')?.fields).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------
// Payloads generated from the catalog.

type Path = (string | number)[];

interface Place {
  path: Path;
  type: FieldType;
  /** A field (removable when required), or an array element. */
  field: FieldSpec | undefined;
}

/** Every field at every depth; inside arrays, the element at index 1 and its fields. */
function* places(fields: readonly FieldSpec[], prefix: Path = []): Generator<Place> {
  for (const field of fields) {
    const path = [...prefix, field.name];
    yield { path, type: field.type, field };
    yield* inside(field.type, path);
  }
}

function* inside(type: FieldType, path: Path): Generator<Place> {
  if (type.kind === 'struct') yield* places(type.struct.fields, path);
  if (type.kind === 'array') {
    const element = [...path, 1];
    yield { path: element, type: type.items, field: undefined };
    yield* inside(type.items, element);
  }
}

function edit(payload: Record<string, unknown>, path: Path, change: (parent: any, key: string | number) => void) {
  const copy = structuredClone(payload);
  let parent: any = copy;
  for (const key of path.slice(0, -1)) parent = parent[key];
  change(parent, path[path.length - 1]!);
  return copy;
}

const WRONG: Record<FieldType['kind'], { value: unknown; code: string }> = {
  string: { value: 5, code: 'invalid_type' },
  integer: { value: 1.5, code: 'not_an_integer' },
  boolean: { value: 'x', code: 'invalid_type' },
  number: { value: 'x', code: 'invalid_type' },
  object: { value: [], code: 'invalid_type' },
  array: { value: {}, code: 'invalid_type' },
  struct: { value: 'x', code: 'invalid_type' },
};

const envelope = (id: string, payload: unknown) => {
  const event = catalog.events.get(id)!;
  return { id: 'e-1', event_type: event.eventType, payload_version: event.version, occurred_at: '2024-01-01T00:00:00Z', payload };
};

const payloadError = (path: Path, code: string) => ({ code, attr: path.join('.'), scope: 'payload', detail: expect.any(String) });

describe('payload validation, for every event id', () => {
  const ids = [...catalog.events.keys()];

  it.each(ids)('%s: accepts a generated payload and keeps every field', (id) => {
    const fields = catalog.events.get(id)!.fields;
    const payload = samplePayload(fields);
    const result = validateEvent(envelope(id, payload));
    expect(result).toEqual({
      ok: true,
      event: expect.objectContaining({ event_id: id, id: 'e-1', occurred_at: '2024-01-01T00:00:00Z', payload }),
    });
    // Optional fields may be absent (top level and in required structures).
    const minimal = (fs: readonly FieldSpec[], seed: string): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const f of fs.filter((x) => x.required)) {
        const value = sampleValue(f.type, `${seed}.${f.name}`);
        out[f.name] = f.type.kind === 'struct' ? minimal(f.type.struct.fields, seed) : value;
      }
      return out;
    };
    expect(validateEvent(envelope(id, minimal(fields, 'm'))).ok).toBe(true);
  });

  it.each(ids)('%s: rejects each missing required field with its attr', (id) => {
    const payload = samplePayload(catalog.events.get(id)!.fields);
    let removed = 0;
    for (const place of places(catalog.events.get(id)!.fields)) {
      if (!place.field?.required) continue;
      const result = validateEvent(envelope(id, edit(payload, place.path, (parent, key) => delete parent[key])));
      expect(result, place.path.join('.')).toEqual({ ok: false, errors: [payloadError(place.path, 'required')] });
      removed++;
    }
    expect(removed).toBe([...places(catalog.events.get(id)!.fields)].filter((p) => p.field?.required).length);
  });

  it.each(ids)('%s: rejects a wrong type or null at each field and array element', (id) => {
    const payload = samplePayload(catalog.events.get(id)!.fields);
    for (const place of places(catalog.events.get(id)!.fields)) {
      const wrong = WRONG[place.type.kind];
      const set = (value: unknown) => edit(payload, place.path, (parent, key) => (parent[key] = value));
      expect(validateEvent(envelope(id, set(wrong.value))), place.path.join('.')).toEqual({
        ok: false,
        errors: [payloadError(place.path, wrong.code)],
      });
      expect(validateEvent(envelope(id, set(null))), place.path.join('.')).toEqual({
        ok: false,
        errors: [payloadError(place.path, 'invalid_type')],
      });
    }
  });

  it.each(ids)('%s: accepts and keeps fields the catalog does not list, at every depth', (id) => {
    let payload: Record<string, unknown> = { ...samplePayload(catalog.events.get(id)!.fields), added_in_v9: { x: [1] } };
    for (const place of places(catalog.events.get(id)!.fields)) {
      if (place.type.kind !== 'struct') continue;
      payload = edit(payload, place.path, (parent, key) => (parent[key] = { ...parent[key], added_later: 'kept' }));
    }
    const result = validateEvent(envelope(id, payload));
    expect(result.ok && result.event.payload).toEqual(payload);
  });
});

describe('payload details', () => {
  it('names the nested path with zero-based indexes, and reports every problem', () => {
    const id = 'account_user.psr_records_updated-v1';
    const payload = samplePayload(catalog.events.get(id)!.fields);
    const records = payload.created_records as Record<string, unknown>[];
    delete records[1]!.gas_industry_code;
    payload.user_id = '7';
    const result = validateEvent(envelope(id, payload));
    expect(result).toEqual({
      ok: false,
      errors: [
        { code: 'invalid_type', attr: 'user_id', scope: 'payload', detail: 'expected integer, got string' },
        payloadError(['created_records', 1, 'gas_industry_code'], 'required'),
      ],
    });
  });

  it('refuses integers that JSON numbers cannot hold exactly', () => {
    const result = validateEventText(
      '{"event_type":"agreement.revoked","payload_version":"v1","payload":{"agreement_id":18014398509481985}}',
    );
    expect(result).toEqual({ ok: false, errors: [payloadError(['agreement_id'], 'integer_out_of_range')] });
    expect(validateEventText('{"event_type":"agreement.revoked","payload_version":"v1","payload":{"agreement_id":3.0}}').ok).toBe(true);
  });

  it('checks the fields shown of the partial event and tolerates the rest', () => {
    const id = 'meterpoint.gas.disputed_opening_reading.accepted.other_supplier-v1';
    const shown = { mprn: 'M', supplier: 'S', reference_number: 4 };
    expect(validateEvent(envelope(id, { ...shown, transfer_date: '2024-01-01', whatever: [1] })).ok).toBe(true);
    expect(validateEvent(envelope(id, { mprn: 'M', supplier: 'S' }))).toEqual({
      ok: false,
      errors: [payloadError(['reference_number'], 'required')],
    });
  });

  it('tells a payload field named payload from the envelope field', () => {
    const id = 'flex_device.disconnected-v1';
    const payload = samplePayload(catalog.events.get(id)!.fields);
    delete payload.payload;
    expect(validateEvent(envelope(id, payload))).toEqual({ ok: false, errors: [payloadError(['payload'], 'required')] });
    const { payload: _omitted, ...noPayload } = envelope(id, {});
    expect(validateEvent(noPayload)).toEqual({
      ok: false,
      errors: [{ code: 'required', attr: 'payload', scope: 'envelope', detail: expect.any(String) }],
    });
  });
});

// ---------------------------------------------------------------------------------------------
// The envelope and the line.

const envelopeError = (attr: string, code: string) => ({ code, attr, scope: 'envelope', detail: expect.any(String) });
const lineError = (code: string) => ({ code, attr: null, scope: 'line', detail: expect.any(String) });

describe('envelope validation', () => {
  const good = { event_type: 'account.occupied', payload_version: 'v1', payload: { account_number: 'A-1' } };

  it('accepts an envelope without id and occurred_at, and ignores unknown envelope fields', () => {
    expect(validateEvent({ ...good, source: 'bus' })).toEqual({
      ok: true,
      event: {
        event_id: 'account.occupied-v1',
        event_type: 'account.occupied',
        payload_version: 'v1',
        id: null,
        occurred_at: null,
        payload: { account_number: 'A-1' },
      },
    });
  });

  it.each([
    ['missing event_type', { payload_version: 'v1', payload: {} }, [envelopeError('event_type', 'required')]],
    ['missing payload_version', { event_type: 'account.occupied', payload: {} }, [envelopeError('payload_version', 'required')]],
    ['unknown event type', { ...good, event_type: 'account.closed' }, [envelopeError('event_type', 'unknown_event_type')]],
    ['unknown version', { ...good, payload_version: 'v2' }, [envelopeError('payload_version', 'unknown_payload_version')]],
    ['version as a number', { ...good, payload_version: 1 }, [envelopeError('payload_version', 'invalid_type')]],
    ['missing payload', { event_type: 'account.occupied', payload_version: 'v1' }, [envelopeError('payload', 'required')]],
    ['payload an array', { ...good, payload: [] }, [envelopeError('payload', 'invalid_type')]],
    ['payload a string', { ...good, payload: '{}' }, [envelopeError('payload', 'invalid_type')]],
    ['payload null', { ...good, payload: null }, [envelopeError('payload', 'invalid_type')]],
    ['id a number', { ...good, id: 12 }, [envelopeError('id', 'invalid_type')]],
    ['occurred_at without zone', { ...good, occurred_at: '2024-03-31T01:30:00' }, [envelopeError('occurred_at', 'invalid_datetime')]],
    ['occurred_at null', { ...good, occurred_at: null }, [envelopeError('occurred_at', 'invalid_type')]],
  ])('%s', (_name, value, errors) => {
    expect(validateEvent(value)).toEqual({ ok: false, errors });
  });

  it('reports every problem of a line at once', () => {
    const result = validateEvent({ id: 3, event_type: 'account.created', payload_version: 'v1', occurred_at: 'soon', payload: { is_imported: 'no' } });
    expect(result).toEqual({
      ok: false,
      errors: [
        envelopeError('id', 'invalid_type'),
        envelopeError('occurred_at', 'invalid_datetime'),
        payloadError(['account_number'], 'required'),
        payloadError(['account_user_emails'], 'required'),
        payloadError(['is_imported'], 'invalid_type'),
      ],
    });
  });

  it('calls a line that is not JSON invalid_json, and JSON that is no object not_an_object', () => {
    expect(validateEventText('{"event_type": "account.occupied",')).toEqual({ ok: false, errors: [lineError('invalid_json')] });
    expect(validateEventText('not json')).toEqual({ ok: false, errors: [lineError('invalid_json')] });
    expect(validateEventText('[{"event_type": "account.occupied"}]')).toEqual({ ok: false, errors: [lineError('not_an_object')] });
    expect(validateEventText('null')).toEqual({ ok: false, errors: [lineError('not_an_object')] });
  });
});

// ---------------------------------------------------------------------------------------------
// The stream.

const occupied = (n: number) =>
  JSON.stringify({ event_type: 'account.occupied', payload_version: 'v1', payload: { account_number: `A-${n}` } });

async function collect(lines: AsyncIterable<ValidatedLine>): Promise<ValidatedLine[]> {
  const out: ValidatedLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

const summary = (results: ValidatedLine[]) =>
  results.map((r) => (r.ok ? [r.line, r.event.event_id] : [r.line, r.errors.map((e) => e.code).join(',')]));

describe('validateEventLines', () => {
  const text = [occupied(1), '', '{oops', '   ', `${occupied(2)}\r`, '["no"]', occupied(3)].join('\n'); // no final \n

  it('numbers lines from 1, counting blank ones, and skips blank lines', async () => {
    const results = await collect(validateEventLines(Readable.from([Buffer.from(text)]), 'test'));
    expect(summary(results)).toEqual([
      [1, 'account.occupied-v1'],
      [3, 'invalid_json'],
      [5, 'account.occupied-v1'],
      [6, 'not_an_object'],
      [7, 'account.occupied-v1'],
    ]);
    expect(results.map((r) => r.raw)).toEqual([occupied(1), '{oops', occupied(2), '["no"]', occupied(3)]);
  });

  it('gives the same results whatever the chunk boundaries, multi-byte characters included', async () => {
    const withEuro = `${JSON.stringify({ event_type: 'account.occupied', payload_version: 'v1', payload: { account_number: '€ 10 — Zoë' } })}\n`;
    const bytes = Buffer.from(`\uFEFF${withEuro}${text}\n`);
    const oneByOne = Readable.from((function* () {
      for (let i = 0; i < bytes.length; i++) yield bytes.subarray(i, i + 1);
    })());
    const results = await collect(validateEventLines(oneByOne, 'test'));
    expect(results[0]).toMatchObject({ line: 1, ok: true, event: { payload: { account_number: '€ 10 — Zoë' } } });
    expect(summary(results.slice(1))).toEqual([
      [2, 'account.occupied-v1'],
      [4, 'invalid_json'],
      [6, 'account.occupied-v1'],
      [7, 'not_an_object'],
      [8, 'account.occupied-v1'],
    ]);
  });

  it('flags a line that is not UTF-8 and goes on', async () => {
    const bad = Buffer.concat([Buffer.from('{"event_type":"account.occupied","x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
    const results = await collect(validateEventLines(Readable.from([bad, Buffer.from(`${occupied(1)}\n`)]), 'test'));
    expect(summary(results)).toEqual([
      [1, 'invalid_utf8'],
      [2, 'account.occupied-v1'],
    ]);
  });

  it('handles a very long line', async () => {
    const long = JSON.stringify({ event_type: 'account.occupied', payload_version: 'v1', payload: { account_number: 'A', notes: 'x'.repeat(8_000_000) } });
    const chunks = Readable.from([Buffer.from(`${occupied(1)}\n${long}\n${occupied(2)}\n`)], { objectMode: false });
    const results = await collect(validateEventLines(chunks, 'test'));
    expect(summary(results)).toEqual([
      [1, 'account.occupied-v1'],
      [2, 'account.occupied-v1'],
      [3, 'account.occupied-v1'],
    ]);
    expect(results[1]!.raw.length).toBe(long.length);
  });

  it('reads only as far as the consumer has asked (bounded memory), and closes the input on break', async () => {
    let pulled = 0;
    const source = Readable.from(
      (function* () {
        for (let n = 1; n <= 100_000; n++) {
          pulled++;
          yield Buffer.from(`${occupied(n)}\n`);
        }
      })(),
    );
    let taken = 0;
    for await (const result of validateEventLines(source, 'test')) {
      expect(result.ok).toBe(true);
      if (++taken === 3) break;
    }
    expect(pulled).toBeLessThan(100);
    expect(source.destroyed).toBe(true);
  });

  it('reads a file: valid events, bad lines with every problem, line numbers as in an editor', async () => {
    const results = await collect(validateEventLines(createReadStream(`${FIXTURES}sample.jsonl`), 'sample.jsonl'));
    expect(summary(results)).toEqual([
      [1, 'account.created-v1'],
      [3, 'invalid_json'],
      [4, 'required'],
      [5, 'unknown_event_type'],
      [6, 'lifecycle.support-site.sale-1.0.0'],
    ]);
    expect(results[2]).toMatchObject({ ok: false, errors: [{ attr: 'created_records.1.gas_industry_code', scope: 'payload' }] });
    expect(results[4]).toMatchObject({ ok: true, event: { occurred_at: '2024-10-27T01:30:00+01:00', payload: { channel: 'phone' } } });
  });

  it('throws EventInputError naming the source and the last line read when the input fails', async () => {
    const failing = new Readable({ read() {} });
    failing.push(`${occupied(1)}\n${occupied(2)}\n`);
    setImmediate(() => failing.destroy(new Error('disk gone')));
    const seen: number[] = [];
    const error = await (async () => {
      try {
        for await (const result of validateEventLines(failing, 'events.jsonl')) seen.push(result.line);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(EventInputError);
    expect(error).toMatchObject({ code: 'EVENT_INPUT', source: 'events.jsonl', line: 2 });
    expect((error as Error).message).toBe('events.jsonl: cannot read events after line 2: disk gone');
    expect(seen).toEqual([1, 2]);

    const missing = validateEventLines(createReadStream(`${FIXTURES}no-such-file.jsonl`), 'no-such-file.jsonl');
    await expect(collect(missing)).rejects.toMatchObject({ code: 'EVENT_INPUT', line: 0, source: 'no-such-file.jsonl' });
  });
});

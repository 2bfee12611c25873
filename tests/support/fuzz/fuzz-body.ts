import fc from 'fast-check';
import { prototypeKeys } from './hostile-values';

/** One request body as sent: the bytes and their content type (none: no header). */
export type FuzzBody = { contentType?: string; payload: string | Buffer };

/** An object's entries in order, so that duplicate and `__proto__` keys reach the wire. */
export type Entries = [key: string, value: unknown][];

const JSON_TYPE = 'application/json';

/** JSON text of an object written entry by entry (JSON.stringify would drop some keys). */
export function objectText(entries: Entries): string {
  const members = entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  return `{${members.join(',')}}`;
}

export function jsonBody(text: string, contentType = JSON_TYPE): FuzzBody {
  return { contentType, payload: text };
}

/**
 * What the server may read out of a body, as a JSON parser that refuses prototype keys would:
 * `undefined` when the body is not JSON (wrong type, bad syntax, prototype keys).
 */
export function parsedJson(body: FuzzBody): { value: unknown } | undefined {
  const type = body.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== JSON_TYPE) return undefined;
  try {
    return { value: JSON.parse(body.payload.toString()) as unknown };
  } catch {
    return undefined;
  }
}

/** Whether the JSON text has a key a prototype-poisoning guard refuses or may refuse. */
export function hasPrototypeKey(body: FuzzBody): boolean {
  return /"(?:__proto__|constructor)"\s*:/.test(body.payload.toString());
}

export function byteLength(body: FuzzBody): number {
  return Buffer.byteLength(body.payload);
}

const invalidUtf8 = fc.constantFrom(
  [0xff],
  [0xc3, 0x28],
  [0xe2, 0x82],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
  [0x80, 0x80, 0x80],
);

/** A string field of `entries` with raw invalid UTF-8 bytes inside it. */
function withInvalidUtf8(entries: fc.Arbitrary<Entries>): fc.Arbitrary<FuzzBody> {
  return fc.tuple(entries, invalidUtf8, fc.nat()).map(([list, bytes, at]) => {
    const marker = '\u{10FFFF}';
    const textual = list.filter(([, value]) => typeof value === 'string');
    const target = textual[at % Math.max(1, textual.length)]?.[0] ?? 'name';
    const marked = list.some(([key]) => key === target)
      ? list.map(([key, value]): [string, unknown] =>
          key === target
            ? [key, `${typeof value === 'string' ? value.slice(0, 50) : ''}${marker}`]
            : [key, value],
        )
      : [...list, [target, marker] as [string, unknown]];
    const [before, after] = objectText(marked).split(marker) as [string, string];
    return {
      contentType: JSON_TYPE,
      payload: Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]),
    };
  });
}

const wrongJsonType = fc
  .oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 20 }),
    fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
  )
  .map((value) => jsonBody(JSON.stringify(value)));

const wrongContentType = fc
  .tuple(
    fc.constantFrom(
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json-patch+json',
      'text/html; charset=utf-8',
    ),
    fc.constantFrom('name=a&email=a%40example.com', '<a>b</a>', '{"name":"A"}', 'hello'),
  )
  .map(([contentType, payload]): FuzzBody => ({ contentType, payload }));

const brokenJson = fc
  .constantFrom(
    '',
    ' ',
    '{',
    '{"name":',
    '{"name":"A",}',
    "{'name':'A'}",
    '{"name":"A"}garbage',
    'NaN',
    '[1,2',
    '\u0000',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `{"a":${'{"a":'.repeat(2000)}1${'}'.repeat(2001)}`,
  )
  .map((text) => jsonBody(text));

/** A JSON object with a prototype key at its top or inside a value. */
function withPrototypeKey(entries: fc.Arbitrary<Entries>): fc.Arbitrary<FuzzBody> {
  return fc
    .tuple(entries, fc.constantFrom(...prototypeKeys), fc.boolean())
    .map(([list, key, nested]) =>
      jsonBody(
        objectText([
          ...list,
          [key, nested ? { prototype: { polluted: 'yes' } } : { polluted: 'yes' }],
        ]),
      ),
    );
}

/**
 * Bodies for a JSON route: mostly objects of `entries` (valid and hostile values, missing and
 * extra keys), and the rest every other way a body can be wrong.
 */
export function hostileBody(entries: fc.Arbitrary<Entries>): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    { weight: 12, arbitrary: entries.map((list) => jsonBody(objectText(list))) },
    {
      weight: 1,
      arbitrary: entries.map((list) =>
        jsonBody(objectText(list), 'application/json; charset=utf-8'),
      ),
    },
    { weight: 1, arbitrary: withInvalidUtf8(entries) },
    { weight: 1, arbitrary: withPrototypeKey(entries) },
    { weight: 1, arbitrary: wrongJsonType },
    { weight: 1, arbitrary: wrongContentType },
    { weight: 1, arbitrary: brokenJson },
  );
}

/** Entries from optional fields (each left out, valid or hostile) plus a few extra keys. */
export function entriesOf(
  fields: Record<string, fc.Arbitrary<unknown>>,
  extra: fc.Arbitrary<Entries>,
): fc.Arbitrary<Entries> {
  const present = Object.entries(fields).map(([key, value]) =>
    fc.option(
      value.map((v): [string, unknown] => [key, v]),
      { freq: 6, nil: undefined },
    ),
  );
  return fc
    .tuple(fc.tuple(...present), extra)
    .map(([list, more]) => [
      ...list.filter((entry): entry is [string, unknown] => entry !== undefined),
      ...more,
    ]);
}

/** Keys no route expects, prototype keys among them. */
export const extraEntries: fc.Arbitrary<Entries> = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('extra', 'id', 'role', 'isAdmin', 'toString'), fc.string()),
    fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()),
  ),
  { maxLength: 2 },
);

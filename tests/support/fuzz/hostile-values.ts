import fc from 'fast-check';

/** Strings that have broken parsers, queries and pages elsewhere. */
export const sqlPayloads = [
  "'; drop table form_submissions; --",
  "' or '1'='1",
  '1; select pg_sleep(10); --',
  "\\'; truncate auth_user cascade; --",
  "x' union select password from auth_account --",
  '$1',
  "E'\\x00'",
];

export const htmlPayloads = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '{{constructor.constructor("alert(1)")()}}',
  '<p style="background:url(javascript:alert(1))">s</p>',
];

export const prototypeKeys = ['__proto__', 'constructor', 'prototype'];

const controlCharacter = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\u200b',
  '\u202e',
);

const loneSurrogate = fc.constantFrom('\ud800', '\udfff', '\udbff', 'a\ud83d', '\ude00b');

/** A string longer than `limit`, cheap to build at any size. */
export function hugeString(limit: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: limit + 1, max: limit * 2 }), fc.constantFrom('x', 'é', '😀', ' '))
    .map(([length, unit]) => unit.repeat(length));
}

const piece = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  controlCharacter,
  loneSurrogate,
  fc.constantFrom(...sqlPayloads, ...htmlPayloads, ...prototypeKeys),
);

/** Any string a hostile client might send in a text field, up to a few times `limit`. */
export function hostileString(limit = 5000): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: hugeString(limit) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '\u0000', '\u00a0\t\n') },
  );
}

/** A value of any JSON type but the expected string (or of the expected one, hostile). */
export function hostileValue(limit = 5000): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: hostileString(limit) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(1e308, -0, Number.MAX_SAFE_INTEGER + 2),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'toString', ...prototypeKeys), fc.string(), {
          maxKeys: 2,
        }),
      ),
    },
  );
}

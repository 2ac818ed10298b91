import fc from 'fast-check';

/**
 * Text that broke or could break something: NUL and other C0/C1 controls, Unicode non-characters, lone surrogates,
 * character references and entities (a CFDI must carry them as written, issue #34), bad escapes, traversal, huge,
 * odd Unicode.
 */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001',
  'A\u001fB',
  '\u007f',
  '\u0085',
  'x\u009f',
  '\ufffe',
  'ACME\uffff',
  '\ufdd0',
  '\u{1fffe}',
  '\u{10ffff}',
  '\ud800',
  'x\udc00',
  'a\udbff',
  '\ud83d\ude00',
  '&#124;',
  'F&#124;1',
  '&#x7C;',
  '&amp;',
  '&amp;#124;',
  'Equipo &lt;b&gt; tres',
  '<IMG SRC=X ONERROR=&#97;LERT(7)>',
  '&',
  '&#0;',
  '&#xFFFF;',
  ']]>',
  '%00',
  '%c0%ae',
  '../../etc/passwd',
  '..%2f..%2f',
  "' or 1=1 --",
  '"; drop table documents; --',
  '{{7*7}}',
  '${7*7}',
  '<script>alert(1)</script>',
  '\u202e\u0635',
  'Ñ&|',
  '|||',
  'inv_',
  'mch_',
  'pay_',
  'acct_',
  '__proto__',
  'constructor',
  'x'.repeat(256),
  'x'.repeat(10_001),
  '\r\n\r\n',
  '\t',
  'null',
  '0',
] as const;

/**
 * Numbers at and past every limit the API has: the amount and quantity bounds (defect 1), the XSD's 18 integer
 * digits, 2^53, tiny and negative values, and the page-size bounds.
 */
const HOSTILE_NUMBERS = [
  0,
  -0,
  -1,
  1e-7,
  0.000001,
  0.1 + 0.2,
  1,
  99,
  100,
  101,
  999,
  1000,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  1.4e17,
  1e18,
  1e21,
  1e308,
  -1e308,
  10_000_000_000_000,
  10_000_000_000_000.01,
  1_000_000_000_000,
  1_000_000_000_001,
  123456789.12345679,
] as const;

export const hostileString = fc.constantFrom(...HOSTILE_STRINGS);
export const hostileNumber = fc.constantFrom(...HOSTILE_NUMBERS);
/** Any JSON value of the wrong kind for the field. */
export const wrongKind = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  hostileNumber,
  hostileString,
);

/** Byte sequences that are not UTF-8 (RFC 3629), each as the API must refuse it rather than repair it to U+FFFD. */
export const INVALID_UTF8: [string, number[]][] = [
  ['0xFF', [0xff]],
  ['a lone continuation byte', [0x80]],
  ['a truncated sequence', [0xe2, 0x82]],
  ['an overlong "/"', [0xc0, 0xaf]],
  ['an encoded surrogate (CESU-8)', [0xed, 0xa0, 0x80]],
  ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
];

/** A JSON text with raw bytes spliced into it (inside a string, where a lenient decoder would repair them). */
export function withBytes(before: string, bytes: number[], after: string): Buffer {
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
}

/** Raw bodies no schema describes: deep and huge JSON, broken JSON, bytes that are not UTF-8. */
export const RAW_BODIES: { name: string; body: () => Buffer | string }[] = [
  { name: 'deep array (100,000 levels)', body: () => '['.repeat(100_000) + ']'.repeat(100_000) },
  { name: 'deep object (20,000 levels)', body: () => '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) },
  {
    name: 'huge JSON just under 1 MB',
    body: () =>
      JSON.stringify({
        items: Array.from({ length: 15_000 }, (_, i) => ({ description: `x${i}`.repeat(5) })),
      }),
  },
  { name: 'huge JSON over 1 MB', body: () => JSON.stringify({ pad: 'x'.repeat(1_100_000) }) },
  { name: 'broken JSON', body: () => '{"merchantId": "mch_x", ' },
  {
    name: 'JSON with a duplicate __proto__',
    body: () => '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}',
  },
  {
    name: 'invalid UTF-8 bytes',
    body: () => Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xae, 0x22, 0x7d]),
  },
  ...INVALID_UTF8.map(([what, bytes]) => ({
    name: `invalid UTF-8 in a field (${what})`,
    body: () => withBytes('{"merchantId":"mch_x","legalName":"ACME ', bytes, '","description":"x"}'),
  })),
  { name: 'a JSON string', body: () => '"just a string"' },
  { name: 'a JSON number past every limit', body: () => '1e999' },
];

/** Path segments that are not ids: bad percent-encodings (defect 5), NUL, traversal, overlong. */
export const HOSTILE_SEGMENTS = [
  '%c0%ae',
  '%00',
  '%ff',
  '%',
  '%E0%A4%A',
  '..',
  '%2e%2e',
  'x'.repeat(101),
  'x'.repeat(2000),
  '%F0%9F%98%80',
  ' ',
  '%20',
  '%01',
  '%1F',
  '%7F',
  '%C2%85',
  '%EF%BF%BF',
  '%EF%B7%90',
  '%ED%A0%80',
  '%26%23124%3B',
];

/**
 * The characters no text of a CFDI may hold, for every field: control characters (C0, DEL and C1) other than tab,
 * line feed and carriage return, Unicode non-characters (U+FDD0–U+FDEF and U+FFFE/U+FFFF of every plane) and
 * unpaired UTF-16 surrogates. XML 1.0 cannot carry C0 controls, U+FFFE, U+FFFF or surrogates at all; the rest are
 * "discouraged" by XML and never part of a name, a description or a key, and the SAT's validators differ on them.
 * The API refuses them at its boundary (apps/api/src/plugins/text-check.ts) and the XML builders again (xmlText).
 */
export const UNSUPPORTED_CHARACTER = /(?![\t\n\r])\p{Cc}|\p{Noncharacter_Code_Point}|\p{Cs}/u;

export const UNSUPPORTED_CHARACTER_MESSAGE =
  'must not contain control characters (other than tab, line feed and carriage return), Unicode non-characters (such as U+FFFE, U+FFFF, U+FDD0) or unpaired UTF-16 surrogates';

export const hasUnsupportedCharacter = (value: string): boolean => UNSUPPORTED_CHARACTER.test(value);

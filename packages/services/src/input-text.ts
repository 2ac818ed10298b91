// What no field of a request may hold (control characters, non-characters, lone surrogates): the CFDI engine's policy,
// applied by the API to every string of every request.
export { hasUnsupportedCharacter, UNSUPPORTED_CHARACTER_MESSAGE } from '@cfdi/cfdi/pure';

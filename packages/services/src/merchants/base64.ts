/**
 * Strict standard base64 (line breaks tolerated, as in files copied from PEM-like tools). Node's decoder
 * silently skips invalid characters, so a non-base64 string would otherwise decode to arbitrary bytes.
 */
export function decodeBase64Strict(text: string): Buffer | null {
  const compact = text.replace(/[\r\n\t ]+/g, '');
  if (!compact || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  return Buffer.from(compact, 'base64');
}

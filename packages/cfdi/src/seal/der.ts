/**
 * Just enough DER reading to get the X.509 extensions Node does not expose: KeyUsage bits
 * (Node's X509Certificate.keyUsage is the *extended* key usage list).
 */
interface Tlv {
  tag: number;
  start: number;
  end: number;
  valueStart: number;
}

function readTlv(buf: Buffer, offset: number): Tlv {
  const tag = buf[offset]!;
  let len = buf[offset + 1]!;
  let p = offset + 2;
  if (len & 0x80) {
    const bytes = len & 0x7f;
    len = 0;
    for (let i = 0; i < bytes; i++) len = len * 256 + buf[p + i]!;
    p += bytes;
  }
  return { tag, start: offset, end: p + len, valueStart: p };
}

function childrenOf(buf: Buffer, tlv: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let p = tlv.valueStart; p < tlv.end;) {
    const c = readTlv(buf, p);
    out.push(c);
    p = c.end;
  }
  return out;
}

const OID_KEY_USAGE = Buffer.from([0x55, 0x1d, 0x0f]);

/** Map of extension OID (dotted for the ones we need) → extnValue contents. */
function extensions(der: Buffer): Map<string, Buffer> {
  const cert = readTlv(der, 0);
  const tbs = childrenOf(der, cert)[0]!;
  const out = new Map<string, Buffer>();
  for (const field of childrenOf(der, tbs)) {
    if (field.tag !== 0xa3) continue; // [3] extensions
    const seq = childrenOf(der, field)[0]!;
    for (const ext of childrenOf(der, seq)) {
      const parts = childrenOf(der, ext);
      const oid = der.subarray(parts[0]!.valueStart, parts[0]!.end);
      const value = parts[parts.length - 1]!;
      out.set(oid.toString('hex'), der.subarray(value.valueStart, value.end));
    }
  }
  return out;
}

const KEY_USAGE_NAMES = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const;

export function keyUsage(der: Buffer): string[] {
  const value = extensions(der).get(OID_KEY_USAGE.toString('hex'));
  if (!value) return [];
  const bits = readTlv(value, 0);
  const bytes = value.subarray(bits.valueStart + 1, bits.end); // skip the unused-bits count
  return KEY_USAGE_NAMES.filter((_, i) => ((bytes[i >> 3] ?? 0) >> (7 - (i & 7))) & 1);
}

export function hasExtension(der: Buffer, oidHex: string): boolean {
  return extensions(der).has(oidHex);
}

/** 2.5.29.37 extendedKeyUsage. */
export const OID_EXT_KEY_USAGE_HEX = '551d25';

/** The bytes of every payload (data and metadata) anywhere in a history event. */
export function payloadBytes(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  if (value instanceof Uint8Array) return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + payloadBytes(item), 0);
  const record = value as Record<string, unknown>;
  if (record.data instanceof Uint8Array && 'metadata' in record) {
    const metadata = Object.entries((record.metadata ?? {}) as Record<string, Uint8Array>);
    return record.data.length + metadata.reduce((sum, [key, bytes]) => sum + key.length + bytes.length, 0);
  }
  return Object.values(record).reduce((sum: number, item) => sum + payloadBytes(item), 0);
}

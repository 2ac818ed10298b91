import { InvalidArgumentError } from 'commander';

export function parseIntOption(raw: string): number {
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new InvalidArgumentError(`"${raw}" is not an integer.`);
  return value;
}

export function parseMode(raw: string): boolean {
  if (raw !== 'test' && raw !== 'live') throw new InvalidArgumentError('mode must be "test" or "live".');
  return raw === 'live';
}

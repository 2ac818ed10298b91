import { InvalidArgumentError, Option } from 'commander';

/** A whole number written in decimal digits ("", "1e3", "0x10" and "1.5" are refused). */
export function parseIntOption(raw: string): number {
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value))
    throw new InvalidArgumentError(`"${raw}" is not a whole number.`);
  return value;
}

export function parseMode(raw: string): boolean {
  if (raw !== 'test' && raw !== 'live') throw new InvalidArgumentError('mode must be "test" or "live".');
  return raw === 'live';
}

/** `--mode <test|live>`, parsed to `livemode` (false by default), with its default shown as "test" in the help. */
export function modeOption(description: string): Option {
  return new Option('--mode <test|live>', description).argParser(parseMode).default(false, 'test');
}

import fs from 'node:fs/promises';
import type { Command } from 'commander';
// Modules, not the services' barrel: the barrel loads every service (Redis client included) at start.
import {
  listPublishedRates,
  recordPublishedRates,
  type PublishedRateRecord,
} from '@cfdi/services/src/exchange-rates/published-rates';
import { MEXICO_CITY } from '@cfdi/services/src/time';
import type { CliContext } from '../context';
import { parseIntOption } from '../options';
import { printRows } from '../print-rows';

/** Today in Mexico City (YYYY-MM-DD): the DOF's day. */
function mexicoToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: MEXICO_CITY }).format(new Date());
}

/**
 * A CSV of rates, one a line: `moneda,date,rate[,source]` (a header line and blank lines are skipped), e.g. a month
 * of Banxico's FIX copied from its SIE export.
 */
function parseRatesCsv(text: string, defaultSource: string): PublishedRateRecord[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^moneda\s*,/i.test(line))
    .map((line) => {
      const [moneda = '', publishedOn = '', rate = '', source] = line.split(',').map((cell) => cell.trim());
      return { moneda: moneda.toUpperCase(), publishedOn, rate, source: source || defaultSource };
    });
}

export function registerExchangeRatesCommands(program: Command, ctx: CliContext): void {
  const rates = program.command('exchange-rates');

  rates
    .command('set <moneda> <rate>')
    .description(
      "Record a currency's published rate (MXN per unit) for a day: the centre of its CFDI40118 band",
    )
    .option('--date <YYYY-MM-DD>', 'the day it was published (default: today in Mexico City)')
    .option('--source <text>', 'where it comes from', 'DOF')
    .option('--json', 'print JSON')
    .action(
      async (moneda: string, rate: string, options: { date?: string; source: string; json?: boolean }) => {
        const record = {
          moneda: moneda.toUpperCase(),
          publishedOn: options.date ?? mexicoToday(),
          rate,
          source: options.source,
        };
        await recordPublishedRates(await ctx.em(), [record]);
        if (options.json) return ctx.print(record, true);
        ctx.print(
          `${record.moneda} ${record.rate} published on ${record.publishedOn} (${record.source})`,
          false,
        );
      },
    );

  rates
    .command('import <file>')
    .description('Record rates from a CSV file, one `moneda,date,rate[,source]` a line; all or none')
    .option('--source <text>', 'the source of lines that name none', 'DOF')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { source: string; json?: boolean }) => {
      const records = parseRatesCsv(await fs.readFile(file, 'utf8'), options.source);
      const recorded = await recordPublishedRates(await ctx.em(), records);
      if (options.json) return ctx.print({ recorded }, true);
      ctx.print(`${recorded} rates recorded`, false);
    });

  rates
    .command('list')
    .description('The recorded rates, newest first')
    .option('--moneda <key>', 'one currency')
    .option('--limit <n>', 'at most this many', '30')
    .option('--json', 'print JSON')
    .action(async (options: { moneda?: string; limit: string; json?: boolean }) => {
      const rows = await listPublishedRates(await ctx.em(), {
        ...(options.moneda ? { moneda: options.moneda.toUpperCase() } : {}),
        limit: parseIntOption(options.limit),
      });
      printRows(ctx, rows, options.json, {
        json: (row) => row,
        line: (row) => `${row.publishedOn}  ${row.moneda}  ${row.rate}  ${row.source}`,
        none: 'No exchange rates recorded: the CFDI40118 band is not checked.',
      });
    });
}

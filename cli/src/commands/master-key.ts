import { InvalidArgumentError, type Command } from 'commander';
import { ConfigError } from '@cfdi/config';
import { rotateMasterKey, type MasterKeyRotationReport } from '@cfdi/services';
import type { CliContext } from '../context';
import { parseIntOption } from '../options';
import { refuse } from '../refuse';

const counts = (report: MasterKeyRotationReport) =>
  Object.entries(report.tables)
    .map(([table, { rotated, failed }]) => `${table} ${rotated} rotated${failed ? `, ${failed} failed` : ''}`)
    .join('; ');

export function registerMasterKeyCommands(program: Command, ctx: CliContext): void {
  program
    .command('master-key')
    .command('rotate')
    .description(
      'Re-encrypt every stored secret (CSD keys and passwords, webhook secrets) under MASTER_KEY_ID; the old ' +
        'keys must be in MASTER_KEYS_PREVIOUS. Safe to interrupt and run again.',
    )
    .option(
      '--batch-size <n>',
      'rows read per query (each row is rotated in its own transaction)',
      parseIntOption,
      100,
    )
    .option('--pause <ms>', 'pause after each batch, to spare a busy database', parseIntOption, 0)
    .option('--json', 'print the report as JSON')
    .action(async (options: { batchSize: number; pause: number; json?: boolean }) => {
      if (options.batchSize < 1) throw new InvalidArgumentError('--batch-size must be at least 1.');
      if (options.pause < 0) throw new InvalidArgumentError('--pause cannot be negative.');
      const ring = ctx.config.masterKey;
      if (!ring)
        throw new ConfigError(['MASTER_KEY is required: it is the key every secret is re-encrypted under']);
      const report = await rotateMasterKey(await ctx.em(), ring, {
        batchSize: options.batchSize,
        pauseMs: options.pause,
        // Progress on stderr: stdout carries the report alone.
        onBatch: (progress) => process.stderr.write(`progress: ${counts(progress)}\n`),
      });
      if (options.json) ctx.print(report, true);
      else
        ctx.print(
          `Every secret now under master key "${report.keyId}" except failures: ${counts(report)}.`,
          false,
        );
      for (const failure of report.failures)
        refuse(
          `${failure.table} ${failure.id}: ${failure.message} (add that key to MASTER_KEYS_PREVIOUS and run again)`,
        );
    });
}

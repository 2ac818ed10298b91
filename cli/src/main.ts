import { describeFailure, printedByCommander, printFailure } from './failures';
import { COMMAND_DESCRIPTIONS, createProgram, wantsJson } from './program';

/**
 * The `cfdi` entry point. A command is run by ./run, required only then: in the build it is a second bundle
 * (dist/cfdi-commands.js, with its dependencies inlined), so `cfdi --help`, `--version` and a mistyped command
 * start with Commander alone (bench/README.md, "CLI start-up").
 */
async function main(argv: string[]): Promise<void> {
  const invoked = argv[2];
  if (invoked && Object.hasOwn(COMMAND_DESCRIPTIONS, invoked)) {
    const { runCommand } = require('./run') as typeof import('./run');
    return runCommand(argv, invoked);
  }
  const json = wantsJson(argv);
  const program = createProgram(json);
  for (const [name, description] of Object.entries(COMMAND_DESCRIPTIONS))
    program.command(name).description(description);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Only Commander's own errors can happen here: it printed them unless the output is JSON.
    const failure = describeFailure(error, null);
    if (json || !printedByCommander(error)) printFailure(failure, json);
    process.exitCode = failure.exitCode;
  }
}

void main(process.argv);

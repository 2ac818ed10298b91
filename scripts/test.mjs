// `npm test`: every check and test on Node 24, against real PostgreSQL, Redis and a Temporal dev server.
import { runTs } from './bootstrap.mjs';

runTs('scripts/test.ts', process.argv.slice(2));

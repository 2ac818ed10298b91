// `npm test`: every check and test, against real PostgreSQL, Redis and a Temporal dev server.
import { ensureInstalled, runTs } from './bootstrap.mjs';

ensureInstalled();
runTs('scripts/test.ts', process.argv.slice(2));

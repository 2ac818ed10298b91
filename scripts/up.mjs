// `npm run up`: the whole platform on this machine with its embedded defaults, on Node 24.
import { runTs } from './bootstrap.mjs';

runTs('scripts/up.ts', process.argv.slice(2));

// `npm run up`: the whole platform on this machine with its embedded defaults.
import { ensureInstalled, runTs } from './bootstrap.mjs';

ensureInstalled();
runTs('scripts/up.ts', process.argv.slice(2));

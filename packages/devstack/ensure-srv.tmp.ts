import { ensureTemporalServer } from './src/index';
console.log(ensureTemporalServer(console.log));

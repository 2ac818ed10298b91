import { ensureTemporalCli, ensureMinio, ensureStripeMock, ensureNode24, ensureTemporalServer } from './src/index';
const log = (l: string) => console.log(new Date().toISOString(), l);
ensureTemporalCli(log); ensureNode24(log); ensureStripeMock(log); ensureTemporalServer(log); ensureMinio(log);

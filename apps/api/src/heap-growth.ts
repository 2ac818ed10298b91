import { setFlagsFromString } from 'node:v8';

// V8 lets the old generation grow to about twice the live heap before a full collection: ~90 MB live under
// bench/stamp, 160–180 MB between collections. At 10 % growth a ~15 ms incremental mark-compact runs every few
// seconds at 35 stamps/s (no measurable CPU per stamp) and the API's peak RSS drops by 30–70 MB (bench/README.md).
// server.ts imports this module first, so the flag holds from the first collection, while the modules load.
setFlagsFromString('--heap-growing-percent=10');
// Memory saver mode keeps the young generation near 1–2 MB rather than the 16 MB its semi-spaces may reach, and the
// old generation's growth step small: the API is waiting on Temporal and PostgreSQL, not computing, so ~30 MB less
// peak RSS under bench/stamp is worth its CPU: +17 % per 1-item stamp (throughput and p50 unchanged), +50 % per
// 500-item one (p50 +8 %; bench/README.md, Stamping). Node 20's V8 does not know the flag (it would print an error).
if (Number(process.versions.node.split('.')[0]) >= 24) setFlagsFromString('--memory-saver-mode');

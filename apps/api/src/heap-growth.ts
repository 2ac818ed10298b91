import { setFlagsFromString } from 'node:v8';

// V8 lets the old generation grow to about twice the live heap before a full collection: ~90 MB live under
// bench/stamp, 160–180 MB between collections. At 10 % growth a ~15 ms incremental mark-compact runs every few
// seconds at 35 stamps/s (no measurable CPU per stamp) and the API's peak RSS drops by 30–70 MB (bench/README.md).
// server.ts imports this module first, so the flag holds from the first collection, while the modules load.
setFlagsFromString('--heap-growing-percent=10');

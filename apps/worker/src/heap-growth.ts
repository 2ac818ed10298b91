import { setFlagsFromString } from 'node:v8';

// V8's own policy lets the old generation grow to up to four times the live heap between full collections. A
// 500-item document leaves ~40 MB of garbage in the worker (building, sealing, its PDF on the files queue), and under
// bench/stamp's 500-item case the worker peaked at 518–546 MB RSS. At 100 % growth (twice the live heap) it peaks at
// 385–428 MB, for ~20 % more CPU per 500-item stamp and none measurable per 1-item stamp (bench/README.md); 10–40 %
// cost 60–100 % more on large stamps. main.ts imports this module first, so the flag holds from the first collection.
setFlagsFromString('--heap-growing-percent=100');

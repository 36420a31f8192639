// The daemon's process entry, dist/daemon/main.js (what `svc sandbox start` runs). First it keeps one
// of Node's tick objects alive (tick-shape.ts); only then does it run the daemon itself (main.ts,
// bundled as dist/daemon/server.cjs), compiled with its V8 code cache (process/code-cache.ts). The
// order matters: loading the daemon's code allocates enough for a garbage collection, and the tick
// object must be held before the first one.
import './tick-shape.js';
import { fileURLToPath } from 'node:url';
import { runBundle } from './process/code-cache.js';

runBundle(fileURLToPath(new URL('./server.cjs', import.meta.url)));

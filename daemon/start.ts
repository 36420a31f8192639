// The daemon's process entry, dist/daemon/main.js (what `svc sandbox start` runs). First it keeps one
// of Node's tick objects alive (tick-shape.ts); only then does it load the daemon itself (main.ts,
// bundled as dist/daemon/server.js). The order matters: loading the daemon's code allocates enough for
// a garbage collection, and the tick object must be held before the first one.
import './tick-shape.js';

await import(new URL('./server.js', import.meta.url).href);

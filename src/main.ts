// The entry point of the npm package's bundle: enables the compile cache, then runs the CLI
// (src/process-main.ts, which is the only place that exits the process).
//
// Start-up is paid by every invocation. This file imports nothing at the top (static imports
// are all loaded before the first line runs), so that the settings below apply to everything
// loaded after them. `sched --version` is answered by bin/sched.js before this file loads.
// Measured with `npm run bench`; see BENCHMARKS.md.
// compile-cache.ts and process-main.ts are the exceptions: they import nothing at the top and
// are part of this file in the bundle.
import { enableCompileCache } from './compile-cache.js';
import { main } from './process-main.js';

// Node 22+: cache compiled code of the modules loaded from here on, across runs, per user.
enableCompileCache();
await main();

// The entry point of the standalone executable (scripts/build-binary.mjs): the CLI bundled as
// one script that Node's single executable application support runs, with V8's code cache in
// the executable, so there is no compile cache to enable. bin/sched.js's `--version`
// shortcut is not needed: nothing here is read from disk.
import { main } from './process-main.js';

void main();

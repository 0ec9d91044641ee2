// The fault × command matrix (see matrix.ts for what each case checks, commands.ts and
// faults.ts for the two sides of the table).
import { vi } from 'vitest';
import { defineFaultMatrix } from './matrix.js';
import { useFastRetries } from './fast-retry.js';

useFastRetries();

// A case mostly waits (a --timeout, a Retry-After, a backoff) and owns its server, config
// directory and in-process run: many at once keep the matrix short on a 2-core machine.
vi.setConfig({ maxConcurrency: 24 });

defineFaultMatrix();

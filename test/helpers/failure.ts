// The typed error a request (or any promise) was expected to fail with.
import { SchedError } from '../../src/errors.js';

export async function failure(p: Promise<unknown>): Promise<SchedError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SchedError) return e;
    throw new Error(`expected a SchedError, got ${String(e)}`);
  }
  throw new Error('expected the request to fail');
}

// Starts a real sandbox in-process for a test: loopback, a free port, every request recorded.
// Close it in afterAll/afterEach (or use `await using`-style try/finally).
import {
  startSandboxServer,
  type SandboxHandle,
  type SandboxOptions,
} from '../../src/sandbox/index.js';

export type TestSandbox = SandboxHandle & {
  /** Env for runSched/spawnSched pointing the CLI at this sandbox. */
  env: { SCHED_BASE_URL: string; SCHED_API_KEY: string };
  /** fetch() against the API with the key set; `path` is relative to baseUrl ("/webhooks"). */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Mints a single-use link to a seeded meeting type (POST /_sandbox/links). */
  mintLink(typeUuid?: string): Promise<{ code: string; url: string }>;
};

/** A meeting type every sandbox seeds. */
export const SEEDED_TYPE_UUID = '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c';

export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const sb = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    recordRequests: true,
    // Fast retries so a test of a failing receiver does not wait for real backoff.
    retryDelaysMs: [20, 40, 80],
    deliveryTimeoutMs: 5_000,
    ...opts,
  });
  return Object.assign(sb, {
    env: { SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey },
    api(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('x-api-key')) headers.set('x-api-key', sb.apiKey);
      if (init.body !== undefined && !headers.has('content-type')) {
        headers.set('content-type', 'application/json');
      }
      return fetch(sb.baseUrl + path, { ...init, headers });
    },
    async mintLink(this: TestSandbox, typeUuid = SEEDED_TYPE_UUID) {
      const r = await this.api('/_sandbox/links', {
        method: 'POST',
        body: JSON.stringify({ meeting_type_uuid: typeUuid }),
      });
      if (r.status !== 201) throw new Error(`minting a link answered ${r.status}`);
      return (await r.json()) as { code: string; url: string };
    },
  });
}

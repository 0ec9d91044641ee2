// Values the CLI's sandbox commands share with the sandbox, without loading the server. No
// imports: registration code and the config store import this, so it must stay free to load.

/** The key a sandbox accepts unless started with --api-key. Documented; not a secret. */
export const DEFAULT_SANDBOX_API_KEY = 'sandbox_test_key';
/** Where `sched sandbox` listens by default. */
export const DEFAULT_SANDBOX_PORT = 4010;
export const DEFAULT_SANDBOX_BASE_URL = `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/api`;

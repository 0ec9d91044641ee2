// PLACEHOLDER interface — implemented in full by the core-commands work (issue 3):
// undici, timeouts, retries with backoff for idempotent requests, Retry-After, proxies,
// --verbose logging with the key masked, every failure mapped to a typed error.

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  /** Path relative to the base URL, e.g. "/webhooks". */
  path: string;
  query?: Array<[string, string]>;
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined for an empty body (204). */
  body: T;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** Sends one request (with retries where safe); non-2xx answers throw typed errors. */
  request<T>(req: ApiRequest): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export interface ApiClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  /** Called with one line per HTTP attempt when --verbose is on. */
  log?: (line: string) => void;
  env?: Record<string, string | undefined>;
}

export function createApiClient(_opts: ApiClientOptions): ApiClient {
  throw new Error('api client not implemented yet');
}

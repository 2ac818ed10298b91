import { CfdiConnectionError, CfdiError } from './errors';
import type { operations } from './schema';

type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of an operation's request. */
export type Body<Op extends keyof operations> = JsonContent<NonNullable<operations[Op]['requestBody']>>;
/** The query parameters of an operation. */
export type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type Responses<Op extends keyof operations> = operations[Op]['responses'];
/** What an operation answers when it succeeds (201 and 202 both, where it has both). */
export type Result<Op extends keyof operations> = {
  [S in keyof Responses<Op>]: S extends 200 | 201 | 202 ? JsonContent<Responses<Op>[S]> : never;
}[keyof Responses<Op>];
/** One item of a list operation's `data`. */
export type Item<Op extends keyof operations> = Result<Op> extends { data: (infer I)[] } ? I : never;

export interface RequestOptions {
  /** For a POST: the key the request is sent, and retried, under (a random one otherwise). */
  idempotencyKey?: string;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  signal?: AbortSignal;
}

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  /**
   * Retries after a 429, a 503 worth retrying, a 409 `request_in_flight`, or a network error on a GET or a POST the
   * API deduplicates by Idempotency-Key (default 3).
   */
  maxRetries?: number;
  /** Per attempt (default 60 s: a stamp may wait up to 20 s for the PAC). */
  timeoutMs?: number;
  /** The longest wait between two attempts, whatever `Retry-After` says (default 30 s). */
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
}

interface Parts {
  path?: Record<string, string>;
  query?: object;
  body?: unknown;
  /** A POST the API deduplicates by its Idempotency-Key (stamps, cancellations, e-mails). */
  idempotent?: boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** A problem worth the same request again: the limit resets, the PAC comes back, the first attempt finishes. */
function retryable(status: number, code: string | undefined): boolean {
  if (status === 429) return true;
  if (status === 409) return code === 'request_in_flight';
  // 503s that are configuration (billing, e-mail, MASTER_KEY missing) will not heal by waiting.
  return status === 503 && (code === undefined || code === 'pac_unavailable');
}

/** Auth, idempotency keys, retries with backoff, problem+json → CfdiError: every method goes through `request`. */
export class Transport {
  private readonly options: Required<Omit<TransportOptions, 'fetch'>> & { fetch: typeof fetch };

  constructor(options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required (sk_test_… or sk_live_…)');
    if (!options.baseUrl) throw new TypeError('baseUrl is required (e.g. http://127.0.0.1:3000)');
    this.options = {
      maxRetries: 3,
      timeoutMs: 60_000,
      maxRetryDelayMs: 30_000,
      fetch: globalThis.fetch,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  url(path: string, parts: Parts = {}): string {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = parts.path?.[name];
      if (value === undefined || value === '') throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(parts.query ?? {}))
      if (value !== undefined && value !== null) search.set(name, String(value));
    const query = search.toString();
    return `${this.options.baseUrl}${filled}${query ? `?${query}` : ''}`;
  }

  async request<T>(
    method: string,
    path: string,
    parts: Parts = {},
    options: RequestOptions = {},
  ): Promise<T> {
    // After a network error the request may have been done: only a GET or a deduplicated POST is sent again.
    const resendable = method === 'GET' || parts.idempotent === true;
    return this.send<T>(method, this.url(path, parts), parts.body, options, {
      authenticated: true,
      resendable,
    });
  }

  /** A page of a list, awaitable, and async-iterable over every item of every page. */
  list<Op extends keyof operations>(path: string, parts: Parts = {}, options: RequestOptions = {}) {
    return new PagedList<Result<Op>, Item<Op>>(
      (startingAfter) =>
        this.request<Result<Op>>(
          'GET',
          path,
          {
            ...parts,
            query: { ...parts.query, ...(startingAfter ? { starting_after: startingAfter } : {}) },
          },
          options,
        ),
      (page) => page as unknown as { data: Item<Op>[]; has_more: boolean },
    );
  }

  /** A signed file URL the API returned (`files.xmlUrl`, …): its bytes. No key is sent; the URL is the credential. */
  download(url: string, options: RequestOptions = {}): Promise<ArrayBuffer> {
    return this.send<ArrayBuffer>('GET', url, undefined, options, { authenticated: false, resendable: true });
  }

  private async send<T>(
    method: string,
    url: string,
    body: unknown,
    options: RequestOptions,
    { authenticated, resendable }: { authenticated: boolean; resendable: boolean },
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (authenticated) headers.authorization = `Bearer ${this.options.apiKey}`;
    // One key for the call, sent again on every retry: the API answers a retry with the first attempt's result.
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const maxRetries = options.maxRetries ?? this.options.maxRetries;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        const signals = [
          AbortSignal.timeout(this.options.timeoutMs),
          ...(options.signal ? [options.signal] : []),
        ];
        response = await this.options.fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.any(signals),
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (attempt >= maxRetries || !resendable)
          throw new CfdiConnectionError(`${method} ${url} failed: ${(error as Error).message}`, {
            cause: error,
          });
        await sleep(this.backoff(attempt, null), options.signal);
        continue;
      }
      if (response.ok) return (await this.parse(response)) as T;
      const problem = (await this.parse(response)) as { code?: string; status?: number } | string | null;
      const fields = problem && typeof problem === 'object' ? problem : {};
      if (attempt < maxRetries && retryable(response.status, fields.code)) {
        await sleep(this.backoff(attempt, response.headers.get('retry-after')), options.signal);
        continue;
      }
      throw new CfdiError({ ...fields, status: response.status }, response.headers);
    }
  }

  private async parse(response: Response): Promise<unknown> {
    const type = response.headers.get('content-type') ?? '';
    if (/json/.test(type)) return response.json();
    if (!response.ok) return { detail: await response.text() };
    return response.arrayBuffer();
  }

  /** `Retry-After` (seconds or an HTTP date) when the server sent one, else 0.5 s doubling, with jitter. */
  private backoff(attempt: number, retryAfter: string | null): number {
    let ms = 500 * 2 ** attempt * (0.75 + Math.random() * 0.5);
    if (retryAfter !== null) {
      const seconds = Number(retryAfter);
      ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    }
    return Math.min(Math.max(ms, 0), this.options.maxRetryDelayMs);
  }
}

/**
 * The answer of a list call: `await` it for one page (`{data, has_more}`), or `for await` over it for every item,
 * fetching the next page (`starting_after` = the last id) only when the loop gets there.
 */
export class PagedList<Page, Item> implements PromiseLike<Page>, AsyncIterable<Item> {
  private first: Promise<Page> | null = null;

  constructor(
    private readonly fetchPage: (startingAfter?: string) => Promise<Page>,
    private readonly items: (page: Page) => { data: Item[]; has_more: boolean },
  ) {}

  then<A = Page, B = never>(
    onFulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.first ??= this.fetchPage();
    return this.first.then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page = await (this.first ??= this.fetchPage());
    for (;;) {
      const { data, has_more } = this.items(page);
      yield* data;
      const last = data.at(-1) as { id?: string } | undefined;
      if (!has_more || !last?.id) return;
      page = await this.fetchPage(last.id);
    }
  }
}

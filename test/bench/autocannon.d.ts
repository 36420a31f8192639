// Just the part of autocannon 8's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }
  /** One entry of `requests`: autocannon cycles through them on every connection. (A type alias, so
   *  that a Record<string, unknown> parameter accepts it.) */
  export type Request = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each request is sent; returns the request to send (fresh keys, signatures). */
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    onResponse?: (
      status: number,
      body: string,
      context: Record<string, unknown>,
      headers: Record<string, string>,
    ) => void;
  };
  export interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    setupClient?: (client: unknown) => void;
    requests?: Request[];
  }
  export interface Result {
    title?: string;
    url: string;
    duration: number;
    connections: number;
    pipelining: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }
  export interface Instance extends Promise<Result> {
    stop(): void;
    /** responseTime: milliseconds, fractional (the result's histogram keeps whole milliseconds only). */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}

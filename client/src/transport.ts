// The transport: one HTTP exchange, injectable. The default is Node's global fetch; the svc CLI can
// hand in its own (undici's request) and tests a scripted one.

export interface TransportRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The exact bytes to send (the signature covers these), or undefined for no body. */
  body: Uint8Array | undefined;
  /** Aborted on the caller's signal or the attempt's timeout. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Sends one request; rejects when no answer arrives (network error, reset, abort). */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export const fetchTransport: Transport = async (req) => {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: req.signal });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, body: new Uint8Array(await res.arrayBuffer()) };
};

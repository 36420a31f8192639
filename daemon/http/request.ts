// Reading a fastify request the way every step of the pipeline needs it: one header's value, and the
// body's digest (computed once: the signature and the idempotency record both use it).
import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../contract/signing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact body: JSON as text (signatures cover the bytes sent), anything else as bytes. */
    rawBody?: string | Buffer;
  }
}

/** A header's value; a repeated header counts by its first value. */
export function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const BODY_SHA256 = Symbol('bodySha256');

/** hex(sha256(raw body)), computed once per request. */
export function bodySha256(req: FastifyRequest): string {
  const r = req as FastifyRequest & { [BODY_SHA256]?: string };
  return (r[BODY_SHA256] ??= sha256Hex(req.rawBody ?? ''));
}

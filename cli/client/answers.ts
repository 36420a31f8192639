// What every command's output needs of an answer, without the HTTP client itself: the answer's shape, the
// refusal in its body, and the errors for a sandbox that does not answer. cli/output.ts imports these, so the
// CLI's entry loads no HTTP client, zod or TOTP code until a command sends something.
import type { ErrorBody } from '../../daemon/contract/errors.js';

/** An answer of the daemon. `body` is T (a response type of daemon/contract/schemas) when the status
 *  is 2xx; otherwise the error body (read it with refusalOf), or text when the answer was not JSON. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

export class DaemonUnreachable extends Error {
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    super(
      `No sandbox answers at ${baseUrl} (${(cause as Error)?.message ?? cause}). Start one with: svc sandbox start`,
    );
  }
}

/**
 * The sandbox the command names is not the one that would answer (it is not running, or another
 * sandbox owns its address): nothing was sent. Exit 3, like a daemon that does not answer.
 */
export class SandboxNotRunning extends DaemonUnreachable {
  constructor(baseUrl: string, message: string) {
    super(baseUrl, null);
    this.message = message;
  }
}

/** The error body of a refusal, as far as the body carries one; undefined for a text or empty body. */
export function refusalOf(body: unknown): Partial<ErrorBody> | undefined {
  return body !== null && typeof body === 'object' ? (body as Partial<ErrorBody>) : undefined;
}

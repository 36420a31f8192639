// The operator realms: the back office (/admin, X-Admin-Key) and the dealer desk (/broker/v1,
// X-Console-Key). Money and approval routes need a step-up: the request goes first without a code
// (the key's 5-minute step-up window may be open); only 401 STEP_UP_REQUIRED makes the client compute
// a TOTP from the identity's step-up secret (this step's code, then the next step's, since each code is
// accepted once; then it waits for the following step). The repo's docs/backoffice.md, "Step-up".
import { isSvcError } from './errors.js';
import { Core, type CoreOptions, type Credentials, type RawCall } from './http.js';
import { type Requester, requester, type RouteCall } from './resources.js';
import { TOTP_PERIOD_S, totp, totpStep } from './totp.js';

export interface OperatorOptions extends CoreOptions {
  /** The operator identity's key. */
  key: string;
  /** The identity's step-up secret (base32), to answer STEP_UP_REQUIRED; without it that refusal is thrown. */
  stepUpSecret?: string;
}

/** Sends calls of one operator realm with its key header and the step-up handled. */
export class OperatorClient {
  readonly core: Core;
  /** Any route of the realm, typed: `desk.request('post', '/broker/v1/queue/{id}/execute', { path: { id }, body })`. */
  readonly request: Requester['request'];

  constructor(
    private readonly header: 'x-admin-key' | 'x-console-key',
    private readonly options: OperatorOptions,
  ) {
    this.core = new Core(options);
    this.request = requester((c) => this.send(c));
  }

  /** Operator writes are not idempotent on the daemon: no key is made, so they are never retried. */
  credentials(): Credentials {
    return { headers: { [this.header]: this.options.key }, autoKey: false };
  }

  protected async send(c: RouteCall): Promise<unknown> {
    const call: RawCall = { ...c.options, method: c.method, path: c.path, body: c.body };
    try {
      return (await this.core.call(call, this.credentials())).data;
    } catch (e) {
      const secret = this.options.stepUpSecret;
      if (!secret || !isSvcError(e, 'STEP_UP_REQUIRED') || call.headers?.['x-step-up-code']) throw e;
      return this.stepUp(call, secret);
    }
  }

  private async stepUp(call: RawCall, secret: string): Promise<unknown> {
    const clock = this.core.clock;
    const now = totpStep(clock.now());
    for (const step of [now, now + 1]) {
      try {
        const headers = { ...call.headers, 'x-step-up-code': totp(secret, step) };
        return (await this.core.call({ ...call, headers }, this.credentials())).data;
      } catch (e) {
        if (!isSvcError(e, 'STEP_UP_REQUIRED')) throw e;
      }
    }
    await clock.sleep(Math.max(0, (now + 2) * TOTP_PERIOD_S * 1000 - clock.now() + 50), call.signal);
    const headers = { ...call.headers, 'x-step-up-code': totp(secret, totpStep(clock.now()) + 1) };
    return (await this.core.call({ ...call, headers }, this.credentials())).data;
  }
}

/** The back office (/admin) with an admin-realm key: `new BackOffice({ baseUrl, key, stepUpSecret })`. */
export class BackOffice extends OperatorClient {
  constructor(options: OperatorOptions) {
    super('x-admin-key', options);
  }
}

/** The dealer desk (/broker/v1) with a console key: `new DealerDesk({ baseUrl, key, stepUpSecret })`. */
export class DealerDesk extends OperatorClient {
  constructor(options: OperatorOptions) {
    super('x-console-key', options);
  }

  /** Orders waiting at the desk, oldest first. */
  queue() {
    return this.request('get', '/broker/v1/queue');
  }
}

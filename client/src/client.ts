// The tenant client: `new SvcClient({ baseUrl, apiKey, signingSecret })`, one method per /v1 route
// (client.orders.create(), client.kyc.uploadDocument()...), a typed request() for any route, waiters.
import { Core, type CoreOptions, type Credentials } from './http.js';
import { buildResources, type Requester, requester, type Resources, type RouteCall } from './resources.js';
import { TENANT_ROUTES } from './routes.js';
import { splitPath, tenantAuthFor } from './signing.js';
import { Waiters } from './wait.js';

export interface ClientOptions extends CoreOptions {
  /** The tenant's API key (Bearer). */
  apiKey: string;
  /** The tenant's signing secret: money routes are signed with it (v1). */
  signingSecret?: string;
}

export type TenantResources = Resources<typeof TENANT_ROUTES>;

export class SvcClient {
  readonly core: Core;
  readonly market: TenantResources['market'];
  readonly news: TenantResources['news'];
  readonly kyc: TenantResources['kyc'];
  readonly investors: TenantResources['investors'];
  readonly accounts: TenantResources['accounts'];
  readonly transfers: TenantResources['transfers'];
  readonly orders: TenantResources['orders'];
  readonly funds: TenantResources['funds'];
  readonly reports: TenantResources['reports'];
  readonly portfolio: TenantResources['portfolio'];
  readonly branding: TenantResources['branding'];
  readonly ai: TenantResources['ai'];
  /** Waits for an order, transfer, KYC application, fund order or report to reach a state. */
  readonly waitFor: Waiters;
  /** Any route, by its path template: `client.request('get', '/v1/orders/{id}', { path: { id } })`. */
  readonly request: Requester['request'];

  constructor(private readonly options: ClientOptions) {
    this.core = new Core(options);
    const send = (c: RouteCall) => this.send(c);
    const r = buildResources(TENANT_ROUTES, send);
    this.market = r.market;
    this.news = r.news;
    this.kyc = r.kyc;
    this.investors = r.investors;
    this.accounts = r.accounts;
    this.transfers = r.transfers;
    this.orders = r.orders;
    this.funds = r.funds;
    this.reports = r.reports;
    this.portfolio = r.portfolio;
    this.branding = r.branding;
    this.ai = r.ai;
    this.request = requester(send);
    this.waitFor = new Waiters(this.core.clock, {
      order: (id, o) => this.orders.get(id, o),
      transfer: (id, o) => this.transfers.get(id, o),
      kyc: (id, o) => this.kyc.get(id, o),
      fundOrder: (id, o) => this.funds.getOrder(id, o),
      report: (id, o) => this.reports.get(id, o),
    });
  }

  /**
   * The tenant's credentials for a call: Bearer always; a key on every write; the signature on money routes.
   * One of two frozen objects, made once: the library only reads them.
   */
  credentials(method: string, path: string): Credentials {
    this.creds ??= tenantCredentials(this.options);
    return tenantAuthFor(method, splitPath(path).path) === 'S' ? this.creds.signed : this.creds.unsigned;
  }

  private creds?: { signed: Credentials; unsigned: Credentials };

  private async send(c: RouteCall): Promise<unknown> {
    const answer = await this.core.call(
      { ...c.options, method: c.method, path: c.path, body: c.body },
      this.credentials(c.method, c.path),
    );
    return answer.data;
  }
}

function tenantCredentials(o: ClientOptions): { signed: Credentials; unsigned: Credentials } {
  const headers = Object.freeze({ authorization: `Bearer ${o.apiKey}` });
  return {
    signed: Object.freeze({ headers, autoKey: true, signingSecret: o.signingSecret }),
    unsigned: Object.freeze({ headers, autoKey: true, signingSecret: undefined }),
  };
}

// svc admin audit [--actor --action --from --to --limit] [--verify]: the hash-chained audit log, newest
// first, times in Cairo; --verify recomputes the chain and checks its signed head (exit 1 when broken).
import type { AuditEntry, AuditList, AuditVerification } from '../../daemon/contract/schemas/backoffice.js';
import { CliExit, EXIT, chalk, printJson, table, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  adminConnection,
  cairo,
  call,
  clip,
  fitLast,
  terminalWidth,
  positiveInt,
  query,
  type AdminGlobals,
} from './admin-identity.js';

export interface AuditOptions {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  limit?: string;
  before?: string;
  verify?: boolean;
}

/** A bound as the API takes it: a Cairo date is that day's start (from) or end (to); RFC 3339 as it is. */
export function bound(name: string, value: string | undefined, end: boolean): string | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${end ? '23:59:59.999' : '00:00:00'}+02:00`;
  if (Number.isNaN(Date.parse(value)) || !/[zZ]|[+-]\d{2}:\d{2}$/.test(value))
    usage(`${name} must be YYYY-MM-DD (Cairo) or an RFC 3339 instant with an offset (got ${value})`);
  return value;
}

/** What an entry did: a request's method and real path, or a domain event and its subject. */
const what = (e: AuditEntry) =>
  /^[A-Z]+ \//.test(e.action) ? `${e.action.split(' ')[0]} ${e.subject}` : `${e.action} ${e.subject}`;

/** The entries for people: the detail only on terminals of 120 columns or more (--json has it all). */
function auditTable(entries: AuditEntry[]): string {
  const wide = terminalWidth() >= 120;
  const headers = ['seq', 'at (Cairo)', 'actor', 'what', ...(wide ? ['detail'] : [])];
  const rows = entries.map((e) => [
    String(e.seq),
    cairo(e.at),
    clip(e.on_behalf_of ? `${e.actor} for ${e.on_behalf_of}` : e.actor, wide ? 22 : 18),
    wide ? clip(what(e), 40) : what(e),
    ...(wide ? [e.detail.replace(/\s+/g, ' ')] : []),
  ]);
  return table(headers, fitLast(headers, rows));
}

async function verify(g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'admin');
  const v = await call<AuditVerification>(c, 'GET', '/admin/audit/verify');
  if (c.json) printJson(v);
  else if (v.ok)
    process.stdout.write(
      `${chalk.green('ok')}: ${v.count} entries, every hash recomputes, the signed head matches\n  head ${v.head}\n`,
    );
  else {
    process.stdout.write(`${chalk.red('BROKEN')} at entry ${v.first_bad_seq ?? '-'}: ${v.reason}\n`);
    // The chain does not reach the checkpoint beside kek.key: only the owner, who knows why, vouches for it again.
    if (v.reason?.includes('checkpoint kept with the key')) {
      process.stdout.write(
        chalk.dim(
          `  The database no longer holds the chain this daemon wrote (docs/reliability.md). If you restored ` +
            `svc.db yourself: ${svc('sandbox stop')}, then ${svc('sandbox start --adopt-audit-head')}\n`,
        ),
      );
    }
  }
  if (!v.ok) throw new CliExit(EXIT.apiError);
}

export async function audit(opts: AuditOptions, g: AdminGlobals): Promise<void> {
  if (opts.verify) return verify(g);
  const c = adminConnection(g, 'admin');
  const limit = positiveInt('--limit', opts.limit) ?? 100;
  const qs = query({
    actor: opts.actor,
    action: opts.action,
    from: bound('--from', opts.from, false),
    to: bound('--to', opts.to, true),
    limit,
    before_seq: positiveInt('--before', opts.before),
  });
  const res = await call<AuditList>(c, 'GET', `/admin/audit${qs}`);
  if (c.json) return printJson(res);
  if (res.entries.length === 0) {
    process.stdout.write('No audit entries match.\n');
    return;
  }
  process.stdout.write(`${auditTable(res.entries)}\n`);
  const last = res.entries[res.entries.length - 1].seq;
  if (res.entries.length === limit && last > 1) process.stdout.write(chalk.dim(`Older entries: --before ${last}\n`));
}

// svc admin access-review [open|decide], svc admin sessions [revoke], svc admin keys rotate|revoke:
// identity hygiene from the terminal (docs/backoffice.md). Access reviews act as compliance by default
// (security decides the items about compliance's own access: --as security); sessions and keys act as
// security. An identity is named by its name (admin, dealer, ...) or its id. A rotated key that the
// home's credentials.json holds is written back there (0600), so the next svc command uses it.
import { renameSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { profilesFile, readJson } from '../context.js';
import { chalk, printJson, table, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  adminConnection,
  cairo,
  call,
  fitLast,
  fittedTable,
  type AdminConnection,
  type AdminGlobals,
} from './admin-identity.js';
import type {
  AccessReviewSchema,
  AccessSnapshotSchema,
  RevokedKeySchema,
  RotatedKeySchema,
  SessionListSchema,
  SessionsRevokedSchema,
} from '../../daemon/contract/schemas/access.js';

type Review = z.infer<typeof AccessReviewSchema>;
type Snapshot = z.infer<typeof AccessSnapshotSchema>;

export interface DecideItemOptions {
  certify?: boolean;
  revoke?: boolean;
  note?: string;
}
export interface RevokeSessionsOptions {
  session?: string[];
  identity?: string;
}

/** The id of an identity named by name or id (ids start with opr_). */
async function identityId(c: AdminConnection, nameOrId: string): Promise<string> {
  if (nameOrId.startsWith('opr_')) return nameOrId;
  const snap = await call<Snapshot>(c, 'GET', '/admin/access-review');
  const hit = snap.identities.find((i) => i.name === nameOrId);
  if (!hit) usage(`no identity named ${nameOrId} (known: ${snap.identities.map((i) => i.name).join(', ')})`);
  return hit.identity_id;
}

function renderReview(r: Review): string {
  const head =
    `${chalk.bold(r.review_id)} ${r.state === 'open' ? chalk.yellow('open') : chalk.green('closed')}, opened ` +
    `by ${r.opened_by} ${cairo(r.opened_at)}` +
    `${r.closed_at ? `, closed ${cairo(r.closed_at)}` : ''}: ${r.items_total - r.items_open} of ` +
    `${r.items_total} decided\n`;
  const open = r.items.filter((i) => i.decision === null);
  if (open.length === 0) return head;
  const headers = ['item', 'identity', 'scope', 'grant'];
  const rows = open.map((i) => [i.item_id, i.identity_name, i.scope, i.grant]);
  return (
    head +
    table(headers, fitLast(headers, rows)) +
    `\nDecide one: ${svc('admin access-review decide ITEM --certify|--revoke --note TEXT')}\n`
  );
}

/** An identity as people read it: its login name, then its display name when it has one. */
const shownName = (name: string, display: string | null | undefined): string =>
  display ? `${name} (${display})` : name;

/** Where an identity stands: key revoked (final), disabled (until enabled again), key rotated, or active as created. */
function identityState(i: Snapshot['identities'][number]): string {
  if (i.revoked_at) return `key revoked ${cairo(i.revoked_at)}`;
  const parts = [
    ...(i.disabled_at ? [`disabled ${cairo(i.disabled_at)}`] : []),
    ...(i.key_rotated_at ? [`key rotated ${cairo(i.key_rotated_at)}`] : []),
  ];
  return parts.length ? parts.join(', ') : 'active';
}

/** svc admin access-review: every identity's access, and the open campaigns. */
export async function accessReview(_o: unknown, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'compliance');
  const snap = await call<Snapshot>(c, 'GET', '/admin/access-review');
  const reviews = await call<{ reviews: Review[] }>(c, 'GET', '/admin/access-reviews?state=open');
  if (c.json) return printJson({ ...snap, open_reviews: reviews.reviews });
  const headers = ['identity', 'name', 'roles', 'grants', 'created (Cairo)', 'last used (Cairo)', 'state'];
  const rows = snap.identities.map((i) => [
    i.identity_id,
    shownName(i.name, i.display_name),
    i.roles.join(','),
    String(i.grants.length),
    cairo(i.created_at),
    cairo(i.last_used_at),
    identityState(i),
  ]);
  process.stdout.write(`${fittedTable(headers, rows, ['created (Cairo)', 'identity'])}\n`);
  if (reviews.reviews.length === 0)
    process.stdout.write(`\nNo open access review. Open one: ${svc('admin access-review open')}\n`);
  for (const r of reviews.reviews) process.stdout.write(`\n${renderReview(r)}`);
}

/** svc admin access-review open: a campaign with one item per identity-grant. */
export async function openReview(_o: unknown, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'compliance');
  const r = await call<Review>(c, 'POST', '/admin/access-reviews', { body: {} });
  if (c.json) return printJson(r);
  process.stdout.write(renderReview(r));
}

/** svc admin access-review decide ITEM --certify|--revoke [--note]: finds the open campaign holding ITEM. */
export async function decideItem(o: DecideItemOptions, g: AdminGlobals, args: string[]): Promise<void> {
  if (Boolean(o.certify) === Boolean(o.revoke)) usage('give exactly one of --certify or --revoke');
  const c = adminConnection(g, 'compliance');
  const itemId = args[0];
  const open = await call<{ reviews: Review[] }>(c, 'GET', '/admin/access-reviews?state=open&limit=50');
  const review = open.reviews.find((r) => r.items.some((i) => i.item_id === itemId));
  if (!review) usage(`no open access review has item ${itemId} (list them: ${svc('admin access-review')})`);
  const body = {
    item_id: itemId,
    decision: o.revoke ? 'revoke' : 'certify',
    ...(o.note !== undefined ? { note: o.note } : {}),
  };
  const r = await call<Review>(c, 'POST', `/admin/access-reviews/${encodeURIComponent(review.review_id)}/decisions`, {
    body,
  });
  if (c.json) return printJson(r);
  const item = r.items.find((i) => i.item_id === itemId)!;
  const verb = item.decision === 'revoke' ? chalk.red('revoked') : chalk.green('certified');
  process.stdout.write(
    `${itemId}: ${item.identity_name}'s ${item.grant} (${item.scope}) ${verb} by ${c.identity}.\n` +
      (r.state === 'closed'
        ? `Access review ${r.review_id} is closed: every item is decided.\n`
        : `${r.items_open} item(s) left in ${r.review_id}.\n`),
  );
}

/** svc admin sessions: console sessions, newest first (times in Cairo). */
export async function sessions(_o: unknown, g: AdminGlobals): Promise<void> {
  const c = adminConnection(g, 'security');
  const res = await call<z.infer<typeof SessionListSchema>>(c, 'GET', '/admin/sessions');
  if (c.json) return printJson(res);
  if (res.sessions.length === 0) return void process.stdout.write('No console sessions.\n');
  const headers = ['session', 'identity', 'signed in (Cairo)', 'last seen (Cairo)', 'stepped up until', 'state'];
  const rows = res.sessions.map((s) => [
    s.session_id,
    shownName(s.identity_name, s.identity_display_name),
    cairo(s.created_at),
    cairo(s.last_seen_at),
    cairo(s.stepped_up_until),
    s.revoked_at
      ? `revoked ${cairo(s.revoked_at)}`
      : s.identity_disabled_at
        ? `identity disabled ${cairo(s.identity_disabled_at)}`
        : Date.parse(s.idle_expires_at) < Date.now()
          ? 'idle (expired)'
          : 'active',
  ]);
  process.stdout.write(`${table(headers, rows)}\n`);
}

/** svc admin sessions revoke --session ID... | --identity NAME|ID */
export async function revokeSessions(o: RevokeSessionsOptions, g: AdminGlobals): Promise<void> {
  if (!o.session?.length && o.identity === undefined) usage('name --session ID (repeatable) or --identity NAME|ID');
  const c = adminConnection(g, 'security');
  const body: Record<string, unknown> = {};
  if (o.session?.length) body.session_ids = o.session;
  if (o.identity !== undefined) body.identity_id = await identityId(c, o.identity);
  const res = await call<z.infer<typeof SessionsRevokedSchema>>(c, 'POST', '/admin/sessions/revoke', { body });
  if (c.json) return printJson(res);
  process.stdout.write(
    res.revoked.length === 0
      ? 'No open session to revoke.\n'
      : `Revoked ${res.revoked.join(', ')}; their next request is refused.\n`,
  );
}

/** Rewrites a JSON file of the home atomically, readable by its owner only. */
function rewrite(file: string, data: unknown): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/**
 * Writes a rotated key where the home keeps the old one: credentials.json (`<name>_key`) and every
 * profile of profiles.json holding that same old key. Answers the files changed.
 */
function saveRotatedKey(c: AdminConnection, name: string, key: string): string[] {
  const home = (c.profile as { home?: string }).home;
  if (!home) return [];
  const field = `${name}_key`;
  const credsFile = join(home, 'credentials.json');
  const creds = readJson<Record<string, string>>(credsFile);
  const old = creds?.[field];
  if (!creds || old === undefined) return [];
  rewrite(credsFile, { ...creds, [field]: key });
  const saved = [credsFile];
  const doc = readJson<{ current: string; profiles: Record<string, Record<string, unknown>> }>(profilesFile(home));
  const holders = Object.values(doc?.profiles ?? {}).filter((p) => p[field] === old);
  if (doc && holders.length > 0) {
    for (const p of holders) p[field] = key;
    rewrite(profilesFile(home), doc);
    saved.push(profilesFile(home));
  }
  return saved;
}

/** svc admin keys rotate|revoke IDENTITY */
async function keys(verb: 'rotate' | 'revoke', g: AdminGlobals, who: string): Promise<void> {
  const c = adminConnection(g, 'security');
  const id = await identityId(c, who);
  if (verb === 'revoke') {
    const r = await call<z.infer<typeof RevokedKeySchema>>(c, 'POST', '/admin/keys/revoke', {
      body: { identity_id: id },
    });
    if (c.json) return printJson(r);
    return void process.stdout.write(
      `Revoked the key of ${r.name} (${r.identity_id}); ${r.sessions_revoked.length} console session(s) ended. ` +
        `Its next request is refused (KEY_REVOKED).\n`,
    );
  }
  const r = await call<z.infer<typeof RotatedKeySchema>>(c, 'POST', '/admin/keys/rotate', {
    body: { identity_id: id },
  });
  const saved = saveRotatedKey(c, r.name, r.operator_key);
  if (c.json) return printJson({ ...r, saved_to: saved });
  process.stdout.write(
    `New key of ${r.name} (${r.identity_id}): ${r.operator_key}\nShown once; the old key is refused from now on.\n` +
      (saved.length
        ? `Saved as ${r.name}_key in ${saved.join(' and ')}.\n`
        : `Not in this home's credentials.json: keep it yourself (SVC_${r.name.toUpperCase()}_KEY or a profile).\n`),
  );
}

export const rotateKey = (_o: unknown, g: AdminGlobals, args: string[]) => keys('rotate', g, args[0]);
export const revokeKey = (_o: unknown, g: AdminGlobals, args: string[]) => keys('revoke', g, args[0]);

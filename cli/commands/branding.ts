// svc branding show|set|logo: the tenant's theme for its reports and statements (docs/branding.md).
// `set` sends only the flags given (the daemon merges them); `logo` uploads a file's raw bytes and the
// daemon judges them by their magic bytes. The daemon's refusals are printed as every command prints
// them (code, message, request id, hint).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { info, ok, printJson, usage } from '../output.js';
import { imageTypeOf } from '../../daemon/contract/kyc.js';
import type { Branding, BrandingLogo } from '../../daemon/contract/schemas/branding.js';

export interface SetOptions {
  displayName?: string;
  primaryColor?: string;
  accentColor?: string;
  font?: string;
  footerText?: string;
  idempotencyKey?: string;
}

export interface LogoOptions {
  idempotencyKey?: string;
}

/** The branding for people: one field a line. */
export function renderBranding(b: Branding): string {
  const rows: Array<[string, string]> = [
    ['display name', b.display_name],
    ['primary colour', b.primary_color],
    ['accent colour', b.accent_color],
    ['font', b.font],
    ['footer', b.footer_text === '' ? '(none)' : b.footer_text],
    ['logo', b.logo_url ?? '(none)'],
    ['updated', b.updated_at],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const indent = `\n${' '.repeat(width + 2)}`;
  return `${rows.map(([k, v]) => `${k.padEnd(width)}  ${v.replace(/\n/g, indent)}`).join('\n')}\n`;
}

function print(b: Branding, json: boolean): void {
  if (json) printJson(b);
  else process.stdout.write(renderBranding(b));
}

export async function show(_opts: object, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  print(ok(await api<Branding>(resolveProfile(g), 'GET', '/v1/branding'), json), json);
}

export async function set(opts: SetOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const body: Record<string, string> = {};
  if (opts.displayName !== undefined) body.display_name = opts.displayName;
  if (opts.primaryColor !== undefined) body.primary_color = opts.primaryColor;
  if (opts.accentColor !== undefined) body.accent_color = opts.accentColor;
  if (opts.font !== undefined) body.font = opts.font;
  if (opts.footerText !== undefined) body.footer_text = opts.footerText;
  if (Object.keys(body).length === 0)
    usage(
      'nothing to set: give at least one of --display-name, --primary-color, --accent-color, --font, --footer-text',
    );
  print(
    ok(
      await api<Branding>(resolveProfile(g), 'PUT', '/v1/branding', { body, idempotencyKey: opts.idempotencyKey }),
      json,
    ),
    json,
  );
}

export async function logo(opts: LogoOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const [file] = args;
  if (!existsSync(file) || !statSync(file).isFile()) usage(`${file}: no such file`);
  const raw = readFileSync(file);
  // The Content-Type is a courtesy: the daemon judges the bytes themselves.
  const contentType = imageTypeOf(raw) ?? 'application/octet-stream';
  const up = ok(
    await api<BrandingLogo>(resolveProfile(g), 'PUT', '/v1/branding/logo', {
      rawBody: raw,
      contentType,
      idempotencyKey: opts.idempotencyKey,
    }),
    json,
  );
  if (json) printJson(up);
  else {
    process.stdout.write(`logo uploaded: ${up.content_type}, ${up.bytes} bytes, sha256 ${up.sha256}\n`);
    info(`served at ${up.logo_url} (bearer key of the tenant)`);
  }
}

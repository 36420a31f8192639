// svc branding show|set|logo against a real daemon through the built bin/svc, without a TTY: the
// defaults, a partial set, the daemon's refusals printed with their code (exit 1), usage errors
// (exit 2), a logo uploaded from a file, --json everywhere, and no clear logo bytes in the home.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type CliSandbox } from '../helpers/cli.js';
import { paddedPng } from '../helpers/png.js';

let sbx: CliSandbox;
/** The logo files, outside the home (the home is searched for their bytes). */
const files = mkdtempSync(join(tmpdir(), 'svc-branding-'));

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
});

afterAll(async () => {
  await sbx?.stop();
  rmSync(files, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('svc branding', () => {
  it('show prints every field, the defaults before any change; --json prints the API body', async () => {
    const plain = await sbx.svc(['branding', 'show']);
    expect(plain.code, plain.stderr).toBe(0);
    for (const text of ['display name', '#1F3A5F', '#C8102E', 'Noto Sans', 'footer', '(none)'])
      expect(plain.stdout).toContain(text);
    const json = await sbx.svc(['branding', 'show', '--json']);
    expect(json.json).toMatchObject({
      primary_color: '#1F3A5F',
      accent_color: '#C8102E',
      font: 'Noto Sans',
      footer_text: '',
      logo_url: null,
    });
  });

  it('set changes only the flags given and prints the whole branding', async () => {
    const res = await sbx.svc([
      'branding',
      'set',
      '--primary-color',
      '#0a7e8c',
      '--font',
      'Noto Serif',
      '--footer-text',
      'Licensed by the FRA',
      '--json',
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json).toMatchObject({
      primary_color: '#0A7E8C',
      accent_color: '#C8102E',
      font: 'Noto Serif',
      footer_text: 'Licensed by the FRA',
    });
    const named = await sbx.svc(['branding', 'set', '--display-name', 'Nile Wealth']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toMatch(/display name\s+Nile Wealth/);
    expect(named.stdout).toContain('#0A7E8C');
  });

  it('a bad colour is refused by the daemon: exit 1, INVALID_COLOR and what a colour must be on stderr, nothing changed', async () => {
    const before = (await sbx.svc(['branding', 'show', '--json'])).json;
    const res = await sbx.svc(['branding', 'set', '--accent-color', '#fff']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('INVALID_COLOR');
    expect(res.stderr).toContain('#rrggbb');
    const json = await sbx.svc(['branding', 'set', '--accent-color', 'red', '--json']);
    expect(json.code).toBe(1);
    expect(json.json.error.code).toBe('INVALID_COLOR');
    expect((await sbx.svc(['branding', 'show', '--json'])).json).toEqual(before);
  });

  it('an unknown font names the embedded set; set with no flag is a usage error (exit 2)', async () => {
    const font = await sbx.svc(['branding', 'set', '--font', 'Comic Sans MS']);
    expect(font.code).toBe(1);
    expect(font.stderr).toContain('UNSUPPORTED_FONT');
    expect(font.stderr).toContain('Noto Sans, Noto Serif, Amiri');
    const none = await sbx.svc(['branding', 'set']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to set');
  });

  it('logo FILE uploads a PNG; an SVG is refused (exit 1, UNSUPPORTED_MEDIA_TYPE); a missing file is a usage error', async () => {
    const png = paddedPng(20_000);
    const file = join(files, 'logo.png');
    writeFileSync(file, png);
    const up = await sbx.svc(['branding', 'logo', file, '--json']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.json).toMatchObject({ logo_url: '/v1/branding/logo', content_type: 'image/png', bytes: png.length });
    const plain = await sbx.svc(['branding', 'logo', file]);
    expect(plain.stdout).toContain(`image/png, ${png.length} bytes`);
    expect((await sbx.svc(['branding', 'show', '--json'])).json.logo_url).toBe('/v1/branding/logo');

    const svg = join(files, 'logo.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const refused = await sbx.svc(['branding', 'logo', svg]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('UNSUPPORTED_MEDIA_TYPE');
    const missing = await sbx.svc(['branding', 'logo', join(sbx.home, 'no-such.png')]);
    expect(missing.code).toBe(2);

    // the logo is sealed at rest: no file of the sandbox home holds its clear bytes
    const raw = Buffer.concat(filesUnder(sbx.home).map((f) => readFileSync(f)));
    for (const at of [8, 10_000, png.length - 32]) expect(raw.includes(png.subarray(at, at + 32))).toBe(false);
  });
});

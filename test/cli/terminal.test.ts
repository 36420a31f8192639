// The everyday terminal conventions of svc on the real binary: shell completion from the command tree,
// examples in every help, NO_COLOR / FORCE_COLOR, the dashboard refusing without a terminal, a missing
// order argument or investor without one, errors with code, request id and hint, svc market watch for scripts, and
// Ink and React kept out of what `svc clock show` loads.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC, runSvc, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { collectHelps, renderReference, withReference } from '../../scripts/cli-doc.js';

const NODE = process.execPath;

function bash(script: string): string {
  return execFileSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, SVC_BIN: `${NODE} ${SVC}` } });
}

/**
 * The script `svc completion bash` prints, written once to a file: each completion below sources it, as a
 * shell that ran `source <(svc completion bash)` holds it, without a new svc process per completion (the
 * first test sources the command's output itself).
 */
let completionScript: string | undefined;
const scriptDir = mkdtempSync(join(tmpdir(), 'svc-completion-'));
afterAll(() => rmSync(scriptDir, { recursive: true, force: true }));
function bashCompletion(): string {
  if (completionScript === undefined) {
    completionScript = join(scriptDir, 'svc.bash');
    writeFileSync(completionScript, execFileSync(NODE, [SVC, 'completion', 'bash'], { encoding: 'utf8' }));
  }
  return completionScript;
}

/** What bash completion offers for a command line (the last word is the one being completed). */
function complete(line: string): string[] {
  const out = bash(`source '${bashCompletion()}'
COMP_WORDS=(${line
    .split(' ')
    .map((w) => `'${w}'`)
    .join(' ')})
COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 ))
_svc_complete
printf '%s\\n' "\${COMPREPLY[@]}"`);
  return out.split('\n').filter(Boolean);
}

describe('svc completion', () => {
  it('bash: sourcing the script registers svc; completing "svc sa" offers sandbox', () => {
    expect(bash('source <($SVC_BIN completion bash); complete -p svc')).toContain('complete -F _svc_complete svc');
    expect(complete('svc sa')).toEqual(['sandbox']);
  });

  it('bash: subcommands, options with the global ones, option choices, after a global option with its value', () => {
    expect(complete('svc order ')).toEqual(['buy', 'sell', 'cancel', 'list', 'show', 'note']);
    expect(complete('svc order buy --t')).toEqual(['--tif', '--timeout']);
    expect(complete('svc order buy --tif ')).toEqual(['day', 'gtc', 'ioc', 'fok']);
    expect(complete('svc market watch --')).toEqual(
      expect.arrayContaining(['--interval', '--count', '--home', '--json', '--help']),
    );
    expect(complete('svc --home /tmp/x clock ad')).toEqual(['advance']);
    expect(complete('svc completion ')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('svc desk kyc ')).toEqual(['list', 'clear', 'decline']);
  });

  it('zsh and fish scripts cover the same tree', async () => {
    const zsh = await runSvc(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^#compdef svc/);
    expect(zsh.stdout).toContain("'svc order buy|--tif') reply=('day' 'gtc' 'ioc' 'fok')");
    expect(zsh.stdout).toContain('compdef _svc svc');
    const fish = await runSvc(['completion', 'fish']);
    expect(fish.stdout).toContain(`complete -c svc -n 'test "$(__svc_path)" = \\'svc\\'' -a 'sandbox'`);
    expect(fish.stdout).toContain("-l tif -x -a 'day gtc ioc fok'");
    const bad = await runSvc(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});

describe('help', () => {
  let helps: Map<string, string>;
  beforeAll(async () => {
    helps = await collectHelps(async (args) => {
      const res = await runSvc(args);
      expect(res.code, res.stderr).toBe(0);
      return res.stdout;
    });
  });

  it('svc --help and every command and subcommand help show examples', () => {
    expect(helps.size).toBeGreaterThan(40);
    for (const p of [
      'svc',
      'svc dashboard',
      'svc completion',
      'svc market watch',
      'svc order buy',
      'svc desk kyc clear',
    ])
      expect([...helps.keys()]).toContain(p);
    const missing = [...helps].filter(([, help]) => !/\nExamples:\n {2}\$ \S/.test(help)).map(([path]) => path);
    expect(missing.sort()).toEqual([]);
  });

  it("docs/cli.md carries every command's current help (run npm run docs after changing one)", () => {
    const doc = readFileSync('docs/cli.md', 'utf8');
    expect(doc).toBe(withReference(doc, renderReference(helps)));
  });
});

describe('colour', () => {
  // A usage error needs no daemon and prints a red "error". The variables are set exactly as given here.
  const RED = '\u001B[31m';
  const run = (env: Record<string, string>) => {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k !== 'NO_COLOR' && k !== 'FORCE_COLOR'),
    ) as Record<string, string>;
    return new Promise<string>((done) => {
      const child = execFile(NODE, [SVC, 'clock', 'advance'], { env: { ...base, ...env } }, (_err, _out, stderr) =>
        done(`exit ${child.exitCode}\n${stderr}`),
      );
    });
  };

  it('FORCE_COLOR colours output without a terminal; NO_COLOR wins over it; empty, 0 or unset: plain without a terminal', async () => {
    const plain: Array<Record<string, string>> = [
      { FORCE_COLOR: '1', NO_COLOR: '1' },
      { NO_COLOR: 'yes' },
      { FORCE_COLOR: '0' },
      { FORCE_COLOR: '' },
      {},
    ];
    // each run a process of its own, all at once
    const [forced, forcedEmptyNo, ...plains] = await Promise.all(
      [{ FORCE_COLOR: '1' }, { FORCE_COLOR: '3', NO_COLOR: '' }, ...plain].map(run),
    );
    for (const stderr of [forced, forcedEmptyNo, ...plains]) expect(stderr).toMatch(/^exit 2\n/);
    expect(forced).toContain(RED);
    expect(forcedEmptyNo).toContain(RED);
    for (const [i, env] of plain.entries()) {
      const stderr = plains[i];
      expect(stderr, JSON.stringify(env)).not.toMatch(/\u001B\[/);
      expect(stderr).toContain('error give exactly one of --minutes, --hours, --days, --until');
    }
  });
});

describe('the import graph of the built CLI', () => {
  const dist = resolve('dist/cli');
  const text = (file: string) => readFileSync(file, 'utf8');
  const specifiers = (file: string, re: RegExp) => [...text(file).matchAll(re)].map((m) => join(dirname(file), m[1]));
  const STATIC = /\bimport\s*(?:[\w$*{}\s,]+?from\s*)?["'](\.[^"']+)["']/g;
  const DYNAMIC = /\bimport\(\s*["'](\.[^"']+)["']\s*\)/g;
  /** The files a module loads before any of its code runs: itself and its static imports, transitively. */
  const closure = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const next of specifiers(file, STATIC)) closure(next, seen);
    return seen;
  };
  const packagesOf = (files: Set<string>) =>
    new Set(
      [...files].flatMap((f) =>
        [...text(f).matchAll(/\bimport\s*(?:[\w$*{}\s,]+?from\s*)?["']([^."'][^"']*)["']/g)].map((m) => m[1]),
      ),
    );
  const lazyChunk = (command: string) => {
    const m = new RegExp(`import\\("\\./(chunks/${command}-[A-Z0-9]+\\.js)"\\)`).exec(text(join(dist, 'main.js')));
    if (!m) throw new Error(`main.js does not import the ${command} command lazily`);
    return join(dist, m[1]);
  };
  const UI = ['ink', 'react', 'react/jsx-runtime', '@inquirer/prompts'];

  it('dist/cli/main.js and the chunk of svc clock show load neither Ink, React nor inquirer', () => {
    for (const file of [join(dist, 'main.js'), lazyChunk('clock')]) {
      const packages = packagesOf(closure(file));
      expect(packages.size, file).toBeGreaterThan(0);
      for (const ui of UI) expect([...packages], file).not.toContain(ui);
    }
  });

  it('svc dashboard loads Ink and React only once its checks pass, through a lazy import (what the check above would see)', () => {
    const command = closure(lazyChunk('dashboard'));
    for (const ui of UI) expect([...packagesOf(command)]).not.toContain(ui);
    const screens = [...command].flatMap((f) => specifiers(f, DYNAMIC));
    const loadedLater = new Set(screens.flatMap((s) => [...packagesOf(closure(s))]));
    expect([...loadedLater]).toEqual(expect.arrayContaining(['ink', 'react/jsx-runtime']));
  });
});

describe('without a terminal (against a daemon)', () => {
  let sbx: CliSandbox;
  beforeAll(async () => {
    sbx = await startSandbox(['--clock', 'frozen']);
  });
  afterAll(async () => sbx?.stop());

  it('svc dashboard refuses with exit 2 and names what to use instead, with the --home in use', async () => {
    for (const args of [['dashboard'], ['dashboard', '--json']]) {
      const res = await sbx.svc(args);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(
        `svc dashboard needs a terminal; use svc --home ${sbx.home} order list / svc --home ${sbx.home} market ` +
          `quotes --json instead`,
      );
      expect(res.stdout).toBe('');
    }
  });

  it('svc order buy with a missing argument is exit 2 naming it, and sends nothing', async () => {
    const none = await sbx.svc(['order', 'buy']);
    expect([none.code, none.stderr]).toEqual([
      2,
      expect.stringContaining('missing SYMBOL and QTY (no terminal to ask in)'),
    ]);
    const noQty = await sbx.svc(['order', 'sell', 'COMI', '--investor', 'inv_x']);
    expect([noQty.code, noQty.stderr]).toEqual([2, expect.stringContaining('missing QTY')]);
    expect((await sbx.svc(['order', 'list', '--json'])).json.orders).toEqual([]);
  });

  it('svc order buy|sell SYMBOL QTY with no investor is exit 2 naming it, CI or not, --json or not, and sends nothing', async () => {
    const requests: string[] = [];
    const listener = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(503).end();
    });
    await new Promise<void>((ready) => listener.listen(0, '127.0.0.1', ready));
    const baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    try {
      for (const [args, ci] of [
        [['order', 'buy', 'COMI', '10'], ''],
        [['order', 'sell', 'COMI', '10', '--limit', '90', '--json'], ''],
        [['order', 'buy', 'COMI', '10'], '1'],
      ] as const) {
        const res = await runSvc([...args, '--base-url', baseUrl], {
          home: sbx.home,
          env: { CI: ci, SVC_INVESTOR_ID: '' },
        });
        expect([res.code, res.stdout, res.stderr], args.join(' ')).toEqual([
          2,
          '',
          'error missing --investor INV (or set SVC_INVESTOR_ID)\n',
        ]);
      }
    } finally {
      listener.close();
    }
    expect(requests).toEqual([]);
  });

  it('an API error prints the code, the message, the request id and the registry hint', async () => {
    const res = await sbx.svc(['order', 'show', 'ord_nope']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error NOT_FOUND \(HTTP 404\): .+\n {2}request_id req_\w+\n {2}hint: .+/);
    const raw = await sbx.svc(['api', 'GET', '/v1/orders/ord_nope']);
    expect(raw.code).toBe(1);
    expect(raw.json.error.code).toBe('NOT_FOUND');
    expect(raw.stderr).toMatch(/error NOT_FOUND \(HTTP 404\)[\s\S]*request_id req_\w+[\s\S]*hint: /);
    const json = await sbx.svc(['api', 'GET', '/v1/orders/ord_nope', '--json']);
    expect([json.code, json.stderr]).toEqual([1, '']);
  });

  it('svc market watch: one line per refresh, --json one object per line, --count stops', async () => {
    const plain = await sbx.svc(['market', 'watch', 'COMI', 'fwry', '--count', '2', '--interval', '0.2']);
    expect(plain.code, plain.stderr).toBe(0);
    const lines = plain.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const l of lines)
      expect(l).toMatch(
        /^2026-11-22T09:00:00\+02:00 {2}COMI \d+\.\d\d [+-]?\d+\.\d\d% {2}FWRY \d+\.\d\d [+-]?\d+\.\d\d%$/,
      );
    const json = await sbx.svc(['market', 'watch', 'COMI', '--count', '3', '--interval', '0.2', '--json']);
    const objects = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(objects).toHaveLength(3);
    expect(objects[0]).toMatchObject({
      as_of: '2026-11-22T09:00:00+02:00',
      quotes: [expect.objectContaining({ symbol: 'COMI', band: expect.any(Object) })],
    });
    const unknown = await sbx.svc(['market', 'watch', 'NOPE', '--count', '1']);
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('UNKNOWN_SYMBOL')]);
    expect((await sbx.svc(['market', 'watch', 'COMI', '--count', '0'])).code).toBe(2);
  });

  it('svc market calendar shows the closed days between trading days with their names', async () => {
    const res = await sbx.svc(['market', 'calendar', '--start', '2027-01-05', '--end', '2027-01-10']);
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.slice(1, 5).map((l) => l.split(/\s{2,}/)[0])).toEqual([
      '2027-01-05',
      '2027-01-06',
      '2027-01-07',
      '2027-01-10',
    ]);
    expect(lines[3]).toMatch(/^2027-01-07 +closed +Coptic Christmas$/);
  });

  it('a quick clock advance without a terminal writes no progress: stderr stays empty', async () => {
    const res = await sbx.svc(['clock', 'advance', '--days', '30', '--json']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    expect(res.json.timestamp).toBe('2026-12-22T09:00:00+02:00');
  });
});

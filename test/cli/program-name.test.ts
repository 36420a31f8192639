// Hints name the program as the user invoked it: `./bin/svc ...` for someone typing ./bin/svc in the
// checkout (the README's way before `npm link`), `svc ...` once svc on the PATH is this very program.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SVC } from '../helpers/cli.js';
import { invokedName } from '../../cli/hints.js';

const REPO = dirname(dirname(SVC));
const tmp = mkdtempSync(join(tmpdir(), 'svc-name-'));
/** PATH without any directory holding an svc. */
const BARE_PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((d) => !d.startsWith(REPO))
  .join(delimiter);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(
  file: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(file, args, { cwd, env: { ...process.env, NO_COLOR: '1', CI: '1', ...env } }, (err, _out, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stderr });
    });
  });
}

describe('hints name the program as it was invoked', () => {
  it('typed as ./bin/svc in the checkout, the hint says ./bin/svc', async () => {
    const r = await run(
      './bin/svc',
      ['--home', tmp, 'order', 'buy'],
      { PATH: BARE_PATH, SVC_INVESTOR_ID: 'inv_0000000000' },
      REPO,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`./bin/svc --home ${tmp} order buy SYMBOL QTY`);
  });

  it('svc on the PATH (a link to this program, as npm link makes): the hint says svc', async () => {
    const binDir = join(tmp, 'bin');
    const link = join(binDir, 'svc');
    rmSync(binDir, { recursive: true, force: true });
    mkdirSync(binDir, { recursive: true });
    symlinkSync(SVC, link);
    const r = await run(
      link,
      ['--home', tmp, 'order', 'buy'],
      { PATH: `${binDir}${delimiter}${BARE_PATH}`, SVC_INVESTOR_ID: 'inv_0000000000' },
      tmp,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`svc --home ${tmp} order buy SYMBOL QTY`);
    expect(r.stderr).not.toContain('bin/svc');
  });

  it('invokedName: svc when the PATH finds this program, else the path from here, else the absolute path', () => {
    const real = realpathSync(SVC);
    expect(invokedName(SVC, dirname(SVC), '/')).toBe('svc');
    expect(invokedName(SVC, BARE_PATH, REPO)).toBe('./bin/svc');
    expect(invokedName(SVC, BARE_PATH, tmp)).toBe(real);
    expect(invokedName('/opt/with space/svc', '', tmp)).toBe("'/opt/with space/svc'");
  });
});

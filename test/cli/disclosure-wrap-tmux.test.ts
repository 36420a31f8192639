// The risk disclosure of `svc investor suitability` on a narrow terminal (tmux 50x30) against a real
// daemon: it wraps between words, never inside one, and every line fits the terminal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC, startSandbox, type CliSandbox } from '../helpers/cli.js';
import { nationalId } from '../helpers/onboarding.js';
import { TmuxSession } from '../helpers/tmux.js';

let sbx: CliSandbox;
let inv: string;
let term: TmuxSession | undefined;

beforeAll(async () => {
  sbx = await startSandbox(['--clock', 'frozen']);
  const { nationalId: id, dateOfBirth } = nationalId();
  const kyc = await sbx.svc([
    'kyc',
    'apply',
    '--full-name',
    'Omar Farouk',
    '--national-id',
    id,
    '--dob',
    dateOfBirth,
    '--email',
    'omar@example.com',
    '--phone',
    '01012345678',
    '--address',
    '12 Tahrir Street, Cairo',
    '--sample-documents',
    '--json',
  ]);
  expect(kyc.code, kyc.stderr).toBe(0);
  inv = kyc.json.investor_id;
});

afterAll(async () => {
  term?.kill();
  await sbx?.stop();
});

const WIDTH = 50;

describe('the risk disclosure in the suitability wizard', () => {
  it('wraps at word boundaries on a 50-column terminal: every word whole, every line within the width', async () => {
    const flags =
      '--experience moderate --horizon 3_5y --risk medium --income 300k_1m --net-worth 1m_5m --objectives growth';
    term = new TmuxSession(
      `env -u CI ${process.execPath} ${SVC} --home ${sbx.home} investor suitability ${inv} ${flags}; echo ` +
        `"EXIT=$?"; sleep 60`,
      { width: WIDTH, height: 30 },
    );
    await term.waitFor('shariah-compliant');
    term.keys('Enter');
    const screen = await term.waitFor('I have read and accept');
    const start = screen.indexOf('Investing in equities');
    const end = screen.indexOf('(T+2).');
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const lines = screen.slice(start, end + '(T+2).'.length).split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line.trimEnd().length).toBeLessThan(WIDTH);
    const words = lines.join(' ').split(/\s+/).filter(Boolean);
    for (const w of ['equities', 'performance', 'invested,', 'available', 'settled']) expect(words).toContain(w);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain(
      'Investing in equities carries risk: prices go down as well as up, you may get back less than you ' +
        'invested, past performance is no guide to the future, and settled cash only is available to trade (T+2).',
    );
  });
});

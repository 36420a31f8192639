// svc investor show|suitability. The investor defaults to $SVC_INVESTOR_ID. `suitability` is a
// wizard with a TTY (inquirer, loaded only then) and flags otherwise.
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions } from '../context.js';
import { canPrompt, loadPrompts, requireFlags } from '../interactive.js';
import { chalk, info, messageWidth, ok, printJson, usage, wrapWords } from '../output.js';
import { svc } from '../hints.js';
import { cashLine } from './balances.js';
import {
  EXPERIENCE_LEVELS,
  HORIZON_BANDS,
  INCOME_BANDS,
  NET_WORTH_BANDS,
  OBJECTIVES,
  RISK_TOLERANCES,
  TIER_NAMES,
  type Questionnaire,
} from '../../daemon/contract/kyc.js';
import type { Balances } from '../../daemon/contract/schemas/ledger.js';
import type { Account, Investor, SuitabilityRecorded } from '../../daemon/contract/schemas/onboarding.js';

export interface SuitabilityOptions {
  experience?: string;
  horizon?: string;
  risk?: string;
  income?: string;
  netWorth?: string;
  objectives?: string;
  shariahOnly?: boolean;
  ackRisk?: boolean;
}

function investorId(args: string[]): string {
  const id = args[0] ?? process.env.SVC_INVESTOR_ID;
  if (!id) usage('give an investor id or set SVC_INVESTOR_ID');
  return id;
}

export async function show(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const id = investorId(args);
  const profile = resolveProfile(g);
  const inv = ok(await api<Investor>(profile, 'GET', `/v1/investors/${encodeURIComponent(id)}`), json);
  if (json) {
    printJson(inv);
    return;
  }
  const [accountRes, balancesRes] = await Promise.all([
    api<Account>(profile, 'GET', `/v1/accounts/${encodeURIComponent(id)}`),
    api<Balances>(profile, 'GET', `/v1/investors/${encodeURIComponent(id)}/balances`),
  ]);
  const account = ok(accountRes, json);
  // An investor who is not approved yet has no balances to read: the line says so.
  const cash = balancesRes.status === 200 ? cashLine(balancesRes.body) : chalk.dim('-');
  const yes = (b: boolean) => (b ? chalk.green('yes') : chalk.yellow('no'));
  const tier = account.suitability.tier as 0 | 1 | 2 | 3;
  const line = (k: string, v: string) => `  ${k.padEnd(20)} ${v}`;
  process.stdout.write(
    `${[
      `${chalk.bold(inv.full_name)} ${chalk.dim(inv.investor_id)}`,
      line('status', inv.status),
      line('account', `${inv.broker_account_ref} (${account.currency})`),
      line('cash', cash),
      line(
        'suitability',
        inv.suitability_recorded ? `tier ${tier} (${TIER_NAMES[tier]})` : chalk.yellow('not recorded'),
      ),
      line('risk acknowledged', yes(inv.risk_acknowledged)),
      line('shariah only', inv.shariah_only ? 'yes' : 'no'),
      line('broker', `${inv.broker.name}, FRA licence ${inv.broker.fra_license_no}`),
      line('', `${inv.broker.contact_email} · ${inv.broker.contact_phone}`),
      line('opened', account.created_at),
      ...(inv.suitability_recorded && inv.risk_acknowledged
        ? []
        : [chalk.dim(`  Equity trading needs both gates: ${svc(`investor suitability ${inv.investor_id}`)}`)]),
    ].join('\n')}\n`,
  );
}

function pick<T extends string>(value: string | undefined, choices: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value))
    usage(`${flag} must be one of ${choices.join(', ')} (got ${value})`);
  return value as T;
}

function objectivesOf(value: string | undefined): Questionnaire['objectives'] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) usage(`--objectives needs at least one of ${OBJECTIVES.join(', ')}`);
  return list.map((o) => pick(o, OBJECTIVES, '--objectives')!);
}

const DISCLOSURE =
  'Investing in equities carries risk: prices go down as well as up, you may get back less than you invested, ' +
  'past performance is no guide to the future, and settled cash only is available to trade (T+2).';

async function wizard(
  partial: Partial<Questionnaire>,
  ackGiven: boolean | undefined,
): Promise<{ questionnaire: Questionnaire; ack: boolean }> {
  const { select, checkbox, confirm } = await loadPrompts();
  const choose = async <T extends string>(
    given: T | undefined,
    message: string,
    choices: readonly T[],
    labels: Record<T, string>,
  ): Promise<T> => given ?? (await select({ message, choices: choices.map((c) => ({ name: labels[c], value: c })) }));
  const questionnaire: Questionnaire = {
    investment_experience: await choose(partial.investment_experience, 'Investment experience', EXPERIENCE_LEVELS, {
      none: 'None',
      limited: 'Limited (a few trades)',
      moderate: 'Moderate (trade regularly)',
      extensive: 'Extensive (professional or many years)',
    }),
    horizon: await choose(partial.horizon, 'Investment horizon', HORIZON_BANDS, {
      under_1y: 'Under 1 year',
      '1_3y': '1 to 3 years',
      '3_5y': '3 to 5 years',
      over_5y: 'Over 5 years',
    }),
    risk_tolerance: await choose(partial.risk_tolerance, 'Risk tolerance', RISK_TOLERANCES, {
      low: 'Low: avoid losses',
      medium: 'Medium: accept some swings',
      high: 'High: accept large swings',
    }),
    annual_income_band: await choose(partial.annual_income_band, 'Annual income (EGP)', INCOME_BANDS, {
      under_120k: 'Under 120,000',
      '120k_300k': '120,000 to 300,000',
      '300k_1m': '300,000 to 1,000,000',
      over_1m: 'Over 1,000,000',
    }),
    net_worth_band: await choose(partial.net_worth_band, 'Net worth (EGP)', NET_WORTH_BANDS, {
      under_250k: 'Under 250,000',
      '250k_1m': '250,000 to 1,000,000',
      '1m_5m': '1,000,000 to 5,000,000',
      over_5m: 'Over 5,000,000',
    }),
    objectives:
      partial.objectives ??
      (await checkbox({
        message: 'Objectives',
        choices: OBJECTIVES.map((o) => ({ name: o.replace('_', ' '), value: o })),
        validate: (items) => items.length > 0 || 'choose at least one',
      })),
    shariah_only:
      partial.shariah_only ??
      (await confirm({ message: 'Invest in shariah-compliant instruments only?', default: false })),
  };
  if (ackGiven === undefined) info(`\n${wrapWords(DISCLOSURE, messageWidth())}\n`);
  const ack =
    ackGiven ?? (await confirm({ message: 'I have read and accept the risk disclosure above', default: false }));
  return { questionnaire, ack };
}

export async function suitability(opts: SuitabilityOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const id = investorId(args);
  const partial: Partial<Questionnaire> = {
    investment_experience: pick(opts.experience, EXPERIENCE_LEVELS, '--experience'),
    horizon: pick(opts.horizon, HORIZON_BANDS, '--horizon'),
    risk_tolerance: pick(opts.risk, RISK_TOLERANCES, '--risk'),
    annual_income_band: pick(opts.income, INCOME_BANDS, '--income'),
    net_worth_band: pick(opts.netWorth, NET_WORTH_BANDS, '--net-worth'),
    objectives: objectivesOf(opts.objectives),
    shariah_only: opts.shariahOnly === undefined ? undefined : Boolean(opts.shariahOnly),
  };
  let questionnaire: Questionnaire;
  let ack: boolean;
  if (canPrompt(json)) {
    ({ questionnaire, ack } = await wizard(partial, opts.ackRisk === undefined ? undefined : Boolean(opts.ackRisk)));
  } else {
    requireFlags(
      {
        '--experience': opts.experience,
        '--horizon': opts.horizon,
        '--risk': opts.risk,
        '--income': opts.income,
        '--net-worth': opts.netWorth,
        '--objectives': opts.objectives,
      },
      (missing) => usage(`missing ${missing.join(', ')} (no terminal to ask in; pass every answer as a flag)`),
    );
    questionnaire = { ...(partial as Questionnaire), shariah_only: partial.shariah_only ?? false };
    ack = Boolean(opts.ackRisk);
  }
  const res = ok(
    await api<SuitabilityRecorded>(resolveProfile(g), 'PUT', `/v1/investors/${encodeURIComponent(id)}/suitability`, {
      body: { questionnaire, risk_acknowledged: ack },
    }),
    json,
  );
  if (json) {
    printJson(res);
    return;
  }
  const tier = res.suitability.tier as 1 | 2 | 3;
  process.stdout.write(
    `Suitability recorded for ${res.investor_id}: tier ${tier} (${TIER_NAMES[tier]}), score ` +
      `${res.suitability.score}\n` +
      `  risk acknowledged  ` +
      (res.suitability.risk_acknowledged ? chalk.green('yes') : chalk.yellow('no (equity trading stays blocked)')) +
      '\n' +
      `  shariah only       ${res.shariah_only ? 'yes' : 'no'}\n`,
  );
}

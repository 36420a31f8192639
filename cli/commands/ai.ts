// svc ai explain|glossary|disclosure|error: the information-only assistant (/v1/ai/*, docs/assistant.md).
// --lang ar|en picks the answer's language (Accept-Language); --json prints the daemon's answer as it
// is. An answer that is not `answered` (refused, abstained, not_found) prints its neutral message and
// exits 1; 501 NOT_AVAILABLE (provider none, an order that was not rejected) is an API error with its hint.
// rejectionRemedy() is what `svc order buy|sell` prints under a rejection.
import type { components } from '../../client/src/generated/api.js';
import { api, refusalOf, type ApiResponse } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { CliExit, EXIT, chalk, ok, printJson, table, usage } from '../output.js';

export interface AiOptions {
  lang?: string;
}

type S = components['schemas'];
/**
 * Any /v1/ai answer as the CLI reads it (the library's generated types): the outcome and language every
 * one has, and the fields of each (an order's explanation, the glossary, the disclosures, an error code).
 */
type AiAnswer = Pick<S['AiOrderExplanation'], 'outcome' | 'language' | 'message'> &
  Partial<
    Omit<S['AiOrderExplanation'], 'outcome' | 'language'> &
      Omit<S['AiGlossaryList'], 'outcome' | 'language'> &
      Pick<S['AiDisclosures'], 'disclosures'> &
      Omit<S['AiErrorExplanation'], 'outcome' | 'language'>
  >;

function langOf(opts: AiOptions): 'en' | 'ar' {
  const lang = opts.lang ?? 'en';
  if (lang !== 'en' && lang !== 'ar') usage(`--lang ${lang} must be ar or en`);
  return lang;
}

/** Words of `text` in lines of at most `width` columns, each line after the first indented. */
export function wrap(text: string, width: number, indent = ''): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const room = width - (lines.length ? indent.length : 0);
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i ? indent + l : l)).join('\n');
}

const width = (): number => Math.max(40, Math.min(process.stdout.columns || 80, 100));

const LABELS = { en: { cause: 'cause', remedy: 'remedy' }, ar: { cause: 'السبب', remedy: 'المعالجة' } } as const;

/** "label  text", wrapped under itself; the label in the answer's language. */
function field(a: AiAnswer, name: 'cause' | 'remedy'): string {
  const pad = LABELS[a.language === 'ar' ? 'ar' : 'en'][name].padEnd(10);
  return `${chalk.bold(pad)}${wrap(a[name] ?? '', width() - pad.length, ' '.repeat(pad.length))}\n`;
}

async function ask(g: GlobalOptions, opts: AiOptions, method: 'GET' | 'POST', path: string): Promise<AiAnswer | null> {
  const lang = langOf(opts);
  const json = Boolean(g.json);
  const body = ok(await api<AiAnswer>(resolveProfile(g), method, path, { headers: { 'accept-language': lang } }), json);
  if (json) printJson(body);
  if (body.outcome === 'answered') return json ? null : body;
  if (!json) process.stdout.write(`${wrap(body.message ?? body.outcome, width())}\n`);
  throw new CliExit(EXIT.apiError);
}

export async function explain(opts: AiOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const a = await ask(g, opts, 'POST', `/v1/ai/explain/order/${encodeURIComponent(args[0])}`);
  if (!a) return;
  const head = [a.order_id, a.symbol, a.state === 'rejected' ? `rejected (${a.reason_code})` : '']
    .filter(Boolean)
    .join('  ');
  process.stdout.write(`${head}\n${field(a, 'cause')}${field(a, 'remedy')}`);
}

export async function glossary(opts: AiOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const term = args[0];
  if (term !== undefined && term.trim() === '') usage('TERM must not be empty: svc ai glossary lists the terms');
  const a = await ask(
    g,
    opts,
    'GET',
    term === undefined ? '/v1/ai/glossary' : `/v1/ai/glossary/${encodeURIComponent(term)}`,
  );
  if (!a) return;
  if (a.article)
    process.stdout.write(
      `${chalk.bold(a.article.title)}  ${chalk.dim(a.article.slug)}\n${wrap(a.article.body, width())}\n`,
    );
  else
    process.stdout.write(
      `${table(
        ['term', a.language === 'ar' ? 'title (ar)' : 'title'],
        (a.articles ?? []).map((x) => [x.slug, x.title]),
      )}\n`,
    );
}

export async function disclosure(opts: AiOptions, g: GlobalOptions): Promise<void> {
  const a = await ask(g, opts, 'GET', '/v1/ai/disclosure');
  if (!a) return;
  process.stdout.write((a.disclosures ?? []).map((d) => `${chalk.bold(d.key)}\n${wrap(d.text, width())}\n`).join('\n'));
}

export async function error(opts: AiOptions, g: GlobalOptions, args: string[]): Promise<void> {
  const a = await ask(g, opts, 'GET', `/v1/ai/dev/explain-error/${encodeURIComponent(args[0])}`);
  if (!a) return;
  process.stdout.write(
    `${a.code}${a.http_status ? ` (HTTP ${a.http_status})` : ''}\n${field(a, 'cause')}${field(a, 'remedy')}`,
  );
}

/**
 * The explainer's remedy for a rejected order (its id) or a refused order request (the refusal's
 * code); null when the assistant does not answer (501 under
 * provider none, an older daemon's 404, a refusal, anything unexpected): the rejection then stands alone.
 */
export async function rejectionRemedy(
  profile: Profile,
  about: { orderId: string } | { code: string },
  lang: 'en' | 'ar' = 'en',
): Promise<string | null> {
  const path =
    'orderId' in about
      ? `/v1/ai/explain/order/${encodeURIComponent(about.orderId)}`
      : `/v1/ai/dev/explain-error/${encodeURIComponent(about.code)}`;
  let res: ApiResponse<AiAnswer>;
  try {
    res = await api<AiAnswer>(profile, 'orderId' in about ? 'POST' : 'GET', path, {
      headers: { 'accept-language': lang },
      timeoutMs: 10_000,
    });
  } catch {
    return null;
  }
  if (res.status !== 200 || refusalOf(res.body)?.error || res.body?.outcome !== 'answered' || !res.body.remedy)
    return null;
  return res.body.remedy;
}

/** The remedy as printed under a rejection. */
export function remedyLine(remedy: string): string {
  return `  ${chalk.dim('assistant:')} ${wrap(remedy, width() - 13, ' '.repeat(13))}`;
}

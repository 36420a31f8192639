// svc kyc apply|status. `apply` is a wizard with a TTY (inquirer, loaded only then) and flags
// otherwise; either way it validates files before creating anything, then creates the application,
// uploads both ID sides (or none: the dossier-only path), submits and shows the outcome.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api } from '../client/http.js';
import { resolveProfile, type GlobalOptions, type Profile } from '../context.js';
import { canPrompt, loadPrompts, requireFlags } from '../interactive.js';
import { chalk, CliExit, EXIT, info, ok, printJson, usage } from '../output.js';
import { svc } from '../hints.js';
import {
  DOCUMENT_SIDES,
  MAX_DOCUMENT_BYTES,
  checkNationalId,
  imageTypeOf,
  isValidAddress,
  isValidEmail,
  isValidFullName,
  isValidPhone,
  parseIsoDate,
  type DocumentSide,
} from '../../daemon/contract/kyc.js';
import type {
  KycApplication,
  KycApplicationCreated,
  KycDocumentUploaded,
  KycSubmitted,
} from '../../daemon/contract/schemas/onboarding.js';

interface Details {
  full_name: string;
  national_id: string;
  date_of_birth: string;
  email: string;
  phone: string;
  address: string;
}

export interface ApplyOptions {
  fullName?: string;
  nationalId?: string;
  dob?: string;
  email?: string;
  phone?: string;
  address?: string;
  front?: string;
  back?: string;
  sampleDocuments?: boolean;
  /** false with --no-documents. */
  documents?: boolean;
}

type Documents = { kind: 'files'; front: string; back: string } | { kind: 'samples' } | { kind: 'none' };

const FLAG_OF: Record<keyof Details, string> = {
  full_name: '--full-name',
  national_id: '--national-id',
  date_of_birth: '--dob',
  email: '--email',
  phone: '--phone',
  address: '--address',
};

/** The option (ApplyOptions) that gives each detail. */
const OPTION_OF = {
  full_name: 'fullName',
  national_id: 'nationalId',
  date_of_birth: 'dob',
  email: 'email',
  phone: 'phone',
  address: 'address',
} as const satisfies Record<keyof Details, keyof ApplyOptions>;

/** The bundled sample images (fixtures/documents), found from the source tree or from dist/. */
export function sampleDocumentsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'fixtures', 'documents');
    if (existsSync(join(candidate, 'national_id_front.png'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('fixtures/documents not found next to the CLI');
}

/** Why a file cannot be an ID image, or null when it can. */
function imageProblem(file: string): string | null {
  if (!existsSync(file)) return `${file} does not exist`;
  const st = statSync(file);
  if (!st.isFile()) return `${file} is not a file`;
  if (st.size > MAX_DOCUMENT_BYTES) return `${file} is ${st.size} bytes; an ID image is at most 512 KiB`;
  if (!imageTypeOf(readFileSync(file).subarray(0, 8))) return `${file} is not a JPEG or PNG image`;
  return null;
}

function documentFiles(docs: Documents): Array<[DocumentSide, string]> {
  if (docs.kind === 'none') return [];
  if (docs.kind === 'samples') {
    const dir = sampleDocumentsDir();
    return DOCUMENT_SIDES.map((side) => [side, join(dir, `${side}.png`)]);
  }
  return [
    ['national_id_front', docs.front],
    ['national_id_back', docs.back],
  ];
}

function fromFlags(opts: ApplyOptions): { details: Details; docs: Documents } {
  const given: Record<keyof Details, string | undefined> = {
    full_name: opts.fullName,
    national_id: opts.nationalId,
    date_of_birth: opts.dob,
    email: opts.email,
    phone: opts.phone,
    address: opts.address,
  };
  const flags = Object.fromEntries(Object.entries(given).map(([k, v]) => [FLAG_OF[k as keyof Details], v]));
  requireFlags(flags, (missing) =>
    usage(`missing ${missing.join(', ')} (no terminal to ask in; pass every field as a flag)`),
  );
  return { details: given as Details, docs: documentsFromFlags(opts, true)! };
}

/** --front/--back, --sample-documents or --no-documents; null when none was given and prompting may ask. */
function documentsFromFlags(opts: ApplyOptions, required: boolean): Documents | null {
  const files = opts.front !== undefined || opts.back !== undefined;
  const chosen = [files, Boolean(opts.sampleDocuments), opts.documents === false].filter(Boolean).length;
  if (chosen > 1) usage('choose one of --front/--back, --sample-documents, --no-documents');
  if (files) {
    if (opts.front === undefined || opts.back === undefined)
      usage('pass both --front FILE and --back FILE (one side alone cannot be submitted)');
    for (const f of [opts.front, opts.back]) {
      const problem = imageProblem(resolve(f));
      if (problem) usage(problem);
    }
    return { kind: 'files', front: resolve(opts.front), back: resolve(opts.back) };
  }
  if (opts.sampleDocuments) return { kind: 'samples' };
  if (opts.documents === false) return { kind: 'none' };
  if (required) usage('missing --front FILE --back FILE, --sample-documents or --no-documents');
  return null;
}

async function askDocuments(): Promise<Documents> {
  const { input, select } = await loadPrompts();
  const kind = await select({
    message: 'National id images',
    choices: [
      { name: 'Use the bundled sample images', value: 'samples' as const },
      { name: 'Upload the front and back from files', value: 'files' as const },
      { name: 'No images (dossier-only path)', value: 'none' as const },
    ],
  });
  if (kind !== 'files') return { kind };
  const validate = (v: string) => imageProblem(resolve(v.trim())) ?? true;
  const front = resolve((await input({ message: 'Front image (JPEG or PNG, at most 512 KiB)', validate })).trim());
  const back = resolve((await input({ message: 'Back image (JPEG or PNG, at most 512 KiB)', validate })).trim());
  return { kind: 'files', front, back };
}

async function wizard(opts: ApplyOptions): Promise<{ details: Details; docs: Documents } | null> {
  const { input, confirm } = await loadPrompts();
  info(chalk.bold('KYC application') + chalk.dim(' (details as on the national id card)'));
  const ask = async (
    key: keyof Details,
    message: string,
    validate: (v: string) => true | string,
    fallback?: string,
  ): Promise<string> => {
    const given = opts[OPTION_OF[key]];
    if (given !== undefined && validate(given) === true) return given;
    return (await input({ message, default: given ?? fallback, validate: (v) => validate(v.trim()) })).trim();
  };
  const full_name = await ask(
    'full_name',
    'Full name',
    (v) => isValidFullName(v) || 'letters (Arabic or Latin) with spaces, 2-120 characters',
  );
  const national_id = await ask('national_id', 'National id (14 digits)', (v) => {
    const r = checkNationalId(v);
    return r.ok || r.reason;
  });
  const nid = checkNationalId(national_id);
  const birth = nid.ok ? nid.birthDate : undefined;
  const date_of_birth = await ask(
    'date_of_birth',
    'Date of birth (YYYY-MM-DD)',
    (v) => {
      if (!parseIsoDate(v)) return 'a real date as YYYY-MM-DD';
      return v === birth || `the national id says ${birth}`;
    },
    birth,
  );
  const email = await ask('email', 'Email', (v) => isValidEmail(v) || 'an email address such as name@example.com');
  const phone = await ask(
    'phone',
    'Mobile (01XXXXXXXXX or +201XXXXXXXXX)',
    (v) => isValidPhone(v) || 'an Egyptian mobile: 010, 011, 012 or 015 and 8 digits',
  );
  const address = await ask('address', 'Address', (v) => isValidAddress(v) || '5-300 characters');
  const docs = documentsFromFlags(opts, false) ?? (await askDocuments());
  if (!(await confirm({ message: 'Submit the application now?', default: true }))) return null;
  return { details: { full_name, national_id, date_of_birth, email, phone, address }, docs };
}

async function onboard(profile: Profile, details: Details, docs: Documents, json: boolean): Promise<KycApplication> {
  const created = ok(
    await api<KycApplicationCreated>(profile, 'POST', '/v1/kyc/applications', { body: details }),
    json,
  );
  const id = created.application_id;
  if (!json) info(`created ${id} (${created.state})`);
  for (const [side, file] of documentFiles(docs)) {
    const raw = readFileSync(file);
    const up = ok(
      await api<KycDocumentUploaded>(profile, 'PUT', `/v1/kyc/applications/${id}/documents/${side}`, {
        rawBody: raw,
        contentType: imageTypeOf(raw) ?? 'application/octet-stream',
      }),
      json,
    );
    if (!json) info(`uploaded ${side} (${up.size_bytes} bytes, sha256 ${up.sha256.slice(0, 12)}…)`);
  }
  const submitted = ok(await api<KycSubmitted>(profile, 'POST', `/v1/kyc/applications/${id}/submit`), json);
  if (!json) info(`submitted: ${submitted.state}`);
  return ok(await api<KycApplication>(profile, 'GET', `/v1/kyc/applications/${id}`), json);
}

function printOutcome(app: KycApplication): void {
  const lines = [
    `Application ${chalk.bold(app.application_id)}: ${stateLabel(app.state)} (${app.path ?? 'not submitted'} path)`,
  ];
  if (app.state === 'approved') {
    lines.push(
      `  investor_id  ${app.investor_id}`,
      '',
      `  export SVC_INVESTOR_ID=${app.investor_id}`,
      chalk.dim(`  Next: ${svc('investor suitability')} · ${svc('investor show')}`),
    );
  } else if (app.state === 'rejected') {
    lines.push(
      `  reason_code  ${app.reason_code}`,
      chalk.dim(`  A rejected application is final; apply again with corrected details: ${svc('kyc apply')}`),
    );
  } else if (app.state === 'screening_referred') {
    lines.push(
      chalk.dim(
        `  Waiting for the broker's review. A dealer decides with: ${svc(`desk kyc clear ${app.application_id}`)}`,
      ),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function stateLabel(state: string): string {
  if (state === 'approved') return chalk.green(state);
  if (state === 'rejected') return chalk.red(state);
  return chalk.yellow(state);
}

export async function apply(opts: ApplyOptions, g: GlobalOptions): Promise<void> {
  const json = Boolean(g.json);
  const input = canPrompt(json) ? await wizard(opts) : fromFlags(opts);
  if (!input) {
    info('Nothing submitted.');
    return;
  }
  const app = await onboard(resolveProfile(g), input.details, input.docs, json);
  if (json) printJson(app);
  else printOutcome(app);
  // A business refusal exits 1 after its answer is printed, like a rejected order (docs/cli.md, Exit codes).
  if (app.state === 'rejected') throw new CliExit(EXIT.apiError);
}

export async function status(_opts: unknown, g: GlobalOptions, args: string[]): Promise<void> {
  const json = Boolean(g.json);
  const [id] = args;
  const app = ok(
    await api<KycApplication>(resolveProfile(g), 'GET', `/v1/kyc/applications/${encodeURIComponent(id)}`),
    json,
  );
  if (json) {
    printJson(app);
    return;
  }
  printOutcome(app);
  const docs = app.documents.map((d) => `${d.side} ${d.size_bytes} bytes`).join(', ');
  process.stdout.write(
    `  documents    ${docs || 'none'}\n  created      ${app.created_at}\n  updated      ${app.updated_at}\n`,
  );
}

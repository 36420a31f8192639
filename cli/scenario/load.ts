// Reads and validates a scenario file before anything runs: YAML syntax, the header, each step's kind
// and shape (zod), references to earlier steps and to env variables, and body files. Every problem is
// reported with the file, the YAML line and column (the yaml library's LineCounter), and the step's
// number and name; nothing is sent to any sandbox when a file is invalid.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { ExprSyntaxError, findRefs, parsePath, type Segment } from './expr.js';
import { uniqueRefProblem } from './unique.js';
import {
  COMMON_STEP_KEYS,
  HeaderSchema,
  INCLUDE_KEY,
  STEP_KINDS,
  STEP_SCHEMAS,
  type Header,
  type Step,
  type StepKind,
} from './schema.js';

export interface ScenarioIssue {
  /** The file the problem is in: the scenario, or a file it includes. */
  file: string;
  /** The scenario file, when the problem is in a file it includes. */
  scenario?: string;
  line?: number;
  col?: number;
  step?: { index: number; name?: string };
  message: string;
}

export class ScenarioInvalid extends Error {
  constructor(readonly issues: ScenarioIssue[]) {
    super(issues.map(formatIssue).join('\n'));
  }
}

export function formatIssue(i: ScenarioIssue): string {
  const where = `${i.file}${i.line !== undefined ? `:${i.line}:${i.col ?? 1}` : ''}`;
  const step = i.step ? `step ${i.step.index}${i.step.name ? ` (${i.step.name})` : ''}: ` : '';
  return `${where}: ${step}${i.message}`;
}

export interface LoadedStep {
  /** 1-based, as reports show it. */
  index: number;
  line: number;
  /** The included file the step is written in (as reports show it); absent for the scenario's own steps. */
  file?: string;
  step: Step;
  /** The resolved body_file of a request step. */
  bodyFile?: string;
}

export interface Scenario {
  /** The path as given on the command line (reports show it). */
  file: string;
  header: Header;
  env: Record<string, string | number | boolean>;
  steps: LoadedStep[];
}

export interface LoadOptions {
  /** --env KEY=VALUE: override the file's env. */
  envOverrides?: Record<string, string>;
  processEnv?: Record<string, string | undefined>;
}

/** Where the checkout's fixtures/ are: body_file paths may be relative to it. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

export function resolveBodyFile(ref: string, scenarioFile: string): string | null {
  const candidates = isAbsolute(ref)
    ? [ref]
    : [resolve(dirname(scenarioFile), ref), resolve(process.cwd(), ref), resolve(packageRoot(), ref)];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** Line and column of the node at `path` (for the last key of a mapping: the key itself); the deepest existing node
 * when the path goes further. */
function locate(doc: Document, lc: LineCounter, path: Segment[]): { line: number; col: number } {
  let node: unknown = doc.contents;
  let offset = (node as YamlNode | null)?.range?.[0] ?? 0;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      offset = (pair.key as YamlNode).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg];
      if (!item) break;
      node = item;
      offset = (item as YamlNode).range?.[0] ?? offset;
    } else break;
  }
  const pos = lc.linePos(offset);
  return { line: pos.line, col: pos.col };
}

interface FlatIssue {
  path: Segment[];
  message: string;
}

/**
 * zod issues as (path, message), unions narrowed to the branch that fits the input's type best; a
 * refinement of an object is left out when a more specific issue inside that object explains it.
 */
function flatten(issues: readonly z.core.$ZodIssue[]): FlatIssue[] {
  const all = flattenAll(issues);
  const within = (inner: Segment[], outer: Segment[]) =>
    inner.length > outer.length && outer.every((s, i) => inner[i] === s);
  return all.filter((f) => !(f.custom && all.some((o) => o !== f && within(o.path, f.path))));
}

function flattenAll(
  issues: readonly z.core.$ZodIssue[],
  prefix: Segment[] = [],
): Array<FlatIssue & { custom?: boolean }> {
  const out: Array<FlatIssue & { custom?: boolean }> = [];
  for (const issue of issues) {
    const path = [...prefix, ...(issue.path as Segment[])];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const branches = issue.errors.filter((b) => b.length > 0);
      const best = branches.find((b) => b.some((i) => i.code !== 'invalid_type' || i.path.length > 0));
      if (best) {
        out.push(...flattenAll(best, path));
        continue;
      }
      out.push({ path, message: `${issue.message}: ${branches.map((b) => b[0]?.message).join('; or ')}` });
    } else if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: [...path, key], message: `unknown key "${key}"` });
    } else out.push({ path, message: issue.message, custom: issue.code === 'custom' });
  }
  return out;
}

function describePath(path: Segment[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function kindOf(raw: Record<string, unknown>): { kind?: StepKind; message?: string; key?: string } {
  const keys = Object.keys(raw);
  const kinds = keys.filter((k) => (STEP_KINDS as readonly string[]).includes(k)) as StepKind[];
  if (kinds.length === 1) return { kind: kinds[0] };
  if (kinds.length > 1)
    return { message: `a step has exactly one kind; this one has ${kinds.join(' and ')}`, key: kinds[1] };
  const unknown = keys.filter((k) => !(COMMON_STEP_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    return { message: `unknown step kind "${unknown[0]}"; a step is one of ${STEP_KINDS.join(', ')}`, key: unknown[0] };
  }
  return { message: `the step has no kind; a step is one of ${STEP_KINDS.join(', ')}` };
}

/** Every string in a raw step value with its path (keys are not interpolated; `name` is not either). */
function* strings(value: unknown, path: Segment[]): Generator<[string, Segment[]]> {
  if (typeof value === 'string') yield [value, path];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* strings(value[i], [...path, i]);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      if (!(path.length === 0 && k === 'name')) yield* strings(v, [...path, k]);
  }
}

/** The file as YAML (anchors and merge keys resolved), the document and its line counter; a scenario must be a mapping,
 * an included file may be a list. */
function parseYaml(file: string, included = false): { doc: Document; lc: LineCounter; raw: unknown } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ScenarioInvalid([
      { file, message: `cannot read the file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` },
    ]);
  }
  const lc = new LineCounter();
  // merge: `<<: *anchor` reuses a mapping with some keys changed (order bodies that differ in one field)
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: true, uniqueKeys: true, merge: true });
  if (doc.errors.length > 0) {
    throw new ScenarioInvalid(
      doc.errors.map((e) => ({
        file,
        line: e.linePos?.[0].line,
        col: e.linePos?.[0].col,
        message: `malformed YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
      })),
    );
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 1_000_000 }); // chains of `<<: *previous` multiply the count
  } catch (err) {
    // the yaml library's guard against alias bombs, or an alias to a missing anchor
    throw new ScenarioInvalid([{ file, message: `malformed YAML: ${(err as Error).message}` }]);
  }
  if (!included && !isMapping(raw)) {
    throw new ScenarioInvalid([
      {
        file,
        line: 1,
        col: 1,
        message: 'a scenario file is a YAML mapping with name, seed, start, steps (see docs/scenarios.md)',
      },
    ]);
  }
  return { doc, lc, raw };
}

/** What checking one step needs to know about the file, and where its problems go. */
interface StepCheck {
  file: string;
  at: (path: Segment[]) => { line: number; col: number };
  env: Record<string, string | number | boolean>;
  processEnv: Record<string, string | undefined>;
  /** The names of the steps checked so far, with their index. */
  names: Map<string, number>;
  /** Each name's first step anywhere in the file (to say "has not run yet here"). */
  laterNames: Map<string, number>;
  issues: ScenarioIssue[];
  /** The step is in a file the scenario includes. */
  included?: boolean;
}

/** References in a step: ${env.X} must be defined; ${step...} must name an earlier step. */
function checkReferences(
  c: StepCheck,
  obj: Record<string, unknown>,
  base: Segment[],
  stepRef: { index: number; name?: string },
): void {
  const { file, at, issues } = c;
  for (const [text, path] of strings(obj, [])) {
    let refs;
    try {
      refs = findRefs(text);
    } catch (err) {
      if (!(err instanceof ExprSyntaxError)) throw err;
      issues.push({ file, ...at([...base, ...path]), step: stepRef, message: `${describePath(path)}: ${err.message}` });
      continue;
    }
    for (const r of refs) {
      let segs: Segment[];
      try {
        segs = parsePath(r.expr);
      } catch (err) {
        issues.push({
          file,
          ...at([...base, ...path]),
          step: stepRef,
          message: `${describePath(path)}: \${${r.expr}}: ${(err as Error).message}`,
        });
        continue;
      }
      const root = String(segs[0]);
      if (root === 'unique') {
        const problem = uniqueRefProblem(segs.slice(1));
        if (problem)
          issues.push({
            file,
            ...at([...base, ...path]),
            step: stepRef,
            message: `${describePath(path)}: \${${r.expr}}: ${problem}`,
          });
      } else if (root === 'env') {
        const v = segs.length === 2 ? String(segs[1]) : undefined;
        if (v === undefined)
          issues.push({
            file,
            ...at([...base, ...path]),
            step: stepRef,
            message: `${describePath(path)}: \${${r.expr}}: write \${env.NAME}`,
          });
        else if (!(v in c.env) && c.processEnv[v] === undefined) {
          issues.push({
            file,
            ...at([...base, ...path]),
            step: stepRef,
            message:
              `${describePath(path)}: \${${r.expr}}: ${v} ` +
              "is set neither in the file's env, by --env, nor in the environment",
          });
        }
      } else if (!c.names.has(root)) {
        const later = c.laterNames.get(root);
        const why =
          later !== undefined && later >= stepRef.index
            ? `step "${root}" is step ${later}, which has not run yet here`
            : `no earlier step is named "${root}"`;
        issues.push({
          file,
          ...at([...base, ...path]),
          step: stepRef,
          message: `${describePath(path)}: \${${r.expr}}: ${why}`,
        });
      }
    }
  }
}

/** Checks step `index` (1-based, includes expanded): the loaded step, or undefined when it has problems (in c.issues).
 * */
function checkStep(c: StepCheck, rawStep: unknown, index: number, base: Segment[]): LoadedStep | undefined {
  const { file, at, issues, names } = c;
  const loc = at(base);
  if (rawStep === null || typeof rawStep !== 'object' || Array.isArray(rawStep)) {
    issues.push({ file, ...loc, step: { index }, message: `a step is a mapping with one of ${STEP_KINDS.join(', ')}` });
    return undefined;
  }
  const obj = rawStep as Record<string, unknown>;
  const stepName = typeof obj.name === 'string' ? obj.name : undefined;
  const stepRef = { index, name: stepName };
  // an invalid step still registers its name, so later references to it do not add noise
  const register = () => {
    if (stepName !== undefined && !names.has(stepName)) names.set(stepName, index);
  };
  const { kind, message, key } = kindOf(obj);
  if (!kind) {
    issues.push({ file, ...at(key ? [...base, key] : base), step: stepRef, message: message! });
    register();
    return undefined;
  }
  const parsed = STEP_SCHEMAS[kind].safeParse(obj);
  if (!parsed.success) {
    for (const f of flatten(parsed.error.issues))
      issues.push({
        file,
        ...at([...base, ...f.path]),
        step: stepRef,
        message: `${describePath(f.path)}: ${f.message}`,
      });
    register();
    return undefined;
  }
  if (stepName !== undefined && names.has(stepName)) {
    issues.push({
      file,
      ...at([...base, 'name']),
      step: stepRef,
      message: `the name "${stepName}" is already used by step ${names.get(stepName)}`,
    });
    return undefined;
  }
  checkReferences(c, obj, base, stepRef);
  let bodyFile: string | undefined;
  const req =
    kind === 'request'
      ? (parsed.data as { request: { body_file?: string } }).request
      : kind === 'wait_until'
        ? (parsed.data as { wait_until: { request: { body_file?: string } } }).wait_until.request
        : undefined;
  if (req?.body_file !== undefined) {
    const found = resolveBodyFile(req.body_file, file);
    if (!found) {
      const p = kind === 'request' ? ['request', 'body_file'] : ['wait_until', 'request', 'body_file'];
      issues.push({
        file,
        ...at([...base, ...p]),
        step: stepRef,
        message:
          `body_file ${req.body_file}: no such file next to the scenario, ` +
          'in the working directory or in the svc checkout',
      });
      register();
      return undefined;
    }
    bodyFile = found;
  }
  register();
  return {
    index,
    line: loc.line,
    step: { kind, ...(parsed.data as object) } as Step,
    bodyFile,
    ...(c.included ? { file } : {}),
  };
}

export function loadScenario(file: string, opts: LoadOptions = {}): Scenario {
  const issues: ScenarioIssue[] = [];
  const { doc, lc, raw: parsed } = parseYaml(file);
  const raw = parsed as Record<string, unknown>;
  const at = (path: Segment[]) => locate(doc, lc, path);

  const header = HeaderSchema.safeParse(raw);
  if (!header.success) {
    for (const f of flatten(header.error.issues)) {
      if (f.path[0] === 'steps' && f.path.length > 1) continue;
      issues.push({ file, ...at(f.path), message: `${describePath(f.path) || 'file'}: ${f.message}` });
    }
    if (!Array.isArray(raw.steps)) throw new ScenarioInvalid(issues);
  }

  const env: Record<string, string | number | boolean> = {
    ...(header.success ? header.data.env : undefined),
    ...opts.envOverrides,
  };
  const expanded: Expansion = { issues, out: [] };
  expandSteps({ file, at }, raw.steps as unknown[], ['steps'], [{ abs: resolve(file), file }], expanded);
  const laterNames = new Map<string, number>();
  expanded.out.forEach((s, i) => {
    const n = isMapping(s.raw) ? s.raw.name : undefined;
    if (typeof n === 'string' && !laterNames.has(n)) laterNames.set(n, i + 1);
  });
  const check: StepCheck = {
    file,
    at,
    env,
    processEnv: opts.processEnv ?? process.env,
    names: new Map(),
    laterNames,
    issues,
  };
  const loaded: LoadedStep[] = [];
  expanded.out.forEach((rs, i) => {
    const step = checkStep({ ...check, file: rs.file, at: rs.at, included: rs.file !== file }, rs.raw, i + 1, rs.base);
    if (step) loaded.push(step);
  });

  if (issues.length > 0 || !header.success) throw new ScenarioInvalid(sortIssues(issues, file));
  return { file, header: header.data, env, steps: loaded };
}

/** The scenario's own problems first, then each included file's; in line order within a file. Problems in included
 * files name the scenario too. */
function sortIssues(issues: ScenarioIssue[], file: string): ScenarioIssue[] {
  const rank = (i: ScenarioIssue) => (i.file === file ? '' : i.file);
  return issues
    .map((i) => (i.file === file ? i : { ...i, scenario: file }))
    .sort((a, b) => rank(a).localeCompare(rank(b)) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
}

// ---- include ---------------------------------------------------------------------------------------

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A step as written, with the file it is in and where to find it there. */
interface RawStep {
  raw: unknown;
  /** The file as reports show it. */
  file: string;
  at: (path: Segment[]) => { line: number; col: number };
  /** The step's path in its file: ['steps', i], or [i] in an included list. */
  base: Segment[];
}

interface Expansion {
  issues: ScenarioIssue[];
  out: RawStep[];
}

interface Source {
  file: string;
  at: (path: Segment[]) => { line: number; col: number };
}

/** The files being included, outermost first: a file already on it is a cycle. */
type IncludeStack = Array<{ abs: string; file: string }>;

/** The steps of a file, each `include:` step replaced by the steps of the file it names, depth first. */
function expandSteps(src: Source, rawSteps: unknown[], base: Segment[], stack: IncludeStack, x: Expansion): void {
  rawSteps.forEach((raw, i) => {
    const path = [...base, i];
    if (isMapping(raw) && INCLUDE_KEY in raw) includeSteps(src, raw, path, stack, x);
    else x.out.push({ raw, file: src.file, at: src.at, base: path });
  });
}

/** An included file's steps: a YAML list of steps, or a mapping with `steps:` and an optional `description:`. */
function includedSteps(file: string, x: Expansion): { src: Source; steps: unknown[]; base: Segment[] } | undefined {
  let parsed;
  try {
    parsed = parseYaml(file, true);
  } catch (err) {
    if (!(err instanceof ScenarioInvalid)) throw err;
    x.issues.push(...err.issues);
    return undefined;
  }
  const { doc, lc, raw } = parsed;
  const src: Source = { file, at: (p) => locate(doc, lc, p) };
  const shape = 'an included file is a list of steps, or a mapping with steps: and an optional description:';
  if (isMapping(raw)) {
    const extra = Object.keys(raw).find((k) => k !== 'steps' && k !== 'description');
    if (extra !== undefined) {
      x.issues.push({ file, ...src.at([extra]), message: `unknown key "${extra}": ${shape}` });
      return undefined;
    }
  }
  const steps = Array.isArray(raw) ? raw : isMapping(raw) ? raw.steps : undefined;
  if (!Array.isArray(steps) || steps.length === 0) {
    x.issues.push({
      file,
      ...src.at(isMapping(raw) && 'steps' in raw ? ['steps'] : []),
      message: `no steps: ${shape}`,
    });
    return undefined;
  }
  return { src, steps, base: Array.isArray(raw) ? [] : ['steps'] };
}

/** `- include: shared/onboard.yaml`: the path is relative to the including file; a file that includes itself, directly
 * or not, is an error. */
function includeSteps(
  src: Source,
  raw: Record<string, unknown>,
  path: Segment[],
  stack: IncludeStack,
  x: Expansion,
): void {
  const problem = (p: Segment[], message: string): void => {
    x.issues.push({ file: src.file, ...src.at(p), message });
  };
  const extra = Object.keys(raw).find((k) => k !== INCLUDE_KEY);
  if (extra !== undefined)
    return problem([...path, extra], `an include step names only the file to include; "${extra}" cannot go with it`);
  const ref = raw[INCLUDE_KEY];
  if (typeof ref !== 'string' || ref.trim() === '')
    return problem([...path, INCLUDE_KEY], 'include: names a YAML file of steps, relative to this file');
  const file = isAbsolute(ref) ? ref : join(dirname(src.file), ref);
  const abs = resolve(file);
  if (stack.some((s) => s.abs === abs)) {
    return problem([...path, INCLUDE_KEY], `include cycle: ${[...stack.map((s) => s.file), file].join(' -> ')}`);
  }
  if (!existsSync(abs) || !statSync(abs).isFile())
    return problem([...path, INCLUDE_KEY], `include ${ref}: no such file (${file})`);
  const inc = includedSteps(file, x);
  if (inc) expandSteps(inc.src, inc.steps, inc.base, [...stack, { abs, file }], x);
}

// Writes each app's environment variables into its README (between the env markers), from its config schema (the
// variables and their defaults) and the comments on the schema's fields (what each one does).
//   npm run docs:env        rewrite the READMEs (a test fails when one is stale)
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { z } from 'zod';
import { agentServerConfigSchema } from '../../apps/agent-server/src/config';
import { controlPlaneConfigSchema } from '../../apps/control-plane/src/config';
import { exportWorkerConfigSchema } from '../../apps/export-worker/src/config';
import { exportConfigSchema } from '../../apps/export/src/config';
import { gatewayConfigSchema } from '../../apps/gateway/src/config';
import { tracingConfigSchema } from '../../apps/tracing/src/config';

const ROOT = path.resolve(__dirname, '../..');
/** Where the comments of the shared variables and helpers (commonServiceEnv, databaseUrl, ...) are. */
const SHARED_CONFIG = [
  'libs/shared/config/src/common-config.ts',
  'libs/shared/config/src/env-types.ts',
  'libs/shared/rate-limit/src/limits-env.ts',
  'libs/shared/egress/src/egress-config.ts',
];

export const APPS: { name: string; schema: z.ZodObject }[] = [
  { name: 'gateway', schema: gatewayConfigSchema },
  { name: 'control-plane', schema: controlPlaneConfigSchema },
  { name: 'agent-server', schema: agentServerConfigSchema },
  { name: 'tracing', schema: tracingConfigSchema },
  { name: 'export', schema: exportConfigSchema },
  { name: 'export-worker', schema: exportWorkerConfigSchema },
];

export const BEGIN = '<!-- env:begin -->';
export const END = '<!-- env:end -->';

interface Field {
  comment?: string;
  /** The initializer's source, e.g. `duration(30_000)`. */
  source: string;
}

function jsDocOf(node: ts.Node): string | undefined {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join(' ');
  return text.replace(/\s+/g, ' ').trim() || undefined;
}

/** The UPPER_CASE properties of a file's object literals, and the commented functions and constants it declares. */
function readSource(file: string): { fields: Map<string, Field>; helpers: Map<string, string> } {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const fields = new Map<string, Field>();
  const helpers = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && /^[A-Z][A-Z0-9_]*$/.test(node.name.text)) {
      fields.set(node.name.text, { comment: jsDocOf(node), source: node.initializer.getText(source) });
    }
    if (ts.isVariableStatement(node)) {
      for (const declaration of node.declarationList.declarations) {
        const comment = jsDocOf(node);
        if (comment && ts.isIdentifier(declaration.name)) helpers.set(declaration.name.text, comment);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { fields, helpers };
}

const UNITS: [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'm'], [1_000, 's']];
const duration = (ms: number) => {
  const unit = UNITS.find(([size]) => ms % size === 0);
  return unit ? `${ms / unit[0]}${unit[1]}` : `${ms}ms`;
};

/** The default as the table shows it (the schema's value for an unset variable). */
function defaultOf(schema: z.ZodType, field: Field): string {
  const parsed = schema.safeParse(undefined);
  if (!parsed.success) return '**required**';
  const value: unknown = parsed.data;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '–';
  if (typeof value === 'number' && field.source.startsWith('duration(')) return `\`${duration(value)}\``;
  // A default computed where the service starts, not a fixed value.
  if (value === process.cwd()) return 'the working directory';
  if (Array.isArray(value)) return `\`${field.source.startsWith('csv(') ? value.join(',') : JSON.stringify(value)}\``;
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** The first call in an initializer: `duration(30_000)` → `duration`; `z.string()...` → `z`. */
const helperOf = (source: string) => /^([A-Za-z_$][\w$]*)/.exec(source)?.[1];

export interface EnvRow {
  name: string;
  defaultText: string;
  description?: string;
}

/** The rows of an app's table, in the schema's order. */
export function envRows(app: (typeof APPS)[number]): EnvRow[] {
  const own = readSource(`apps/${app.name}/src/config.ts`);
  const shared = SHARED_CONFIG.map(readSource);
  return Object.entries(app.schema.shape).map(([name, schema]) => {
    const field = own.fields.get(name) ?? shared.map((s) => s.fields.get(name)).find(Boolean) ?? { source: '' };
    const helper = helperOf(field.source);
    const helperComment = helper ? shared.map((s) => s.helpers.get(helper)).find(Boolean) : undefined;
    // A helper's comment describes its variable when it starts with its name (`DATABASE_URL`: ...).
    const named = helperComment?.startsWith(`\`${name}\`: `) ? helperComment.slice(name.length + 4) : undefined;
    const description = field.comment ?? (named && named.charAt(0).toUpperCase() + named.slice(1));
    return { name, defaultText: defaultOf(schema as z.ZodType, field), description };
  });
}

const escape = (text: string) => text.replace(/\|/g, '\\|');

export function envSection(app: (typeof APPS)[number]): string {
  const rows = envRows(app).map((row) => `| \`${row.name}\` | ${row.defaultText} | ${escape(row.description ?? '')} |`);
  return [
    BEGIN,
    `<!-- Generated from apps/${app.name}/src/config.ts by \`npm run docs:env\`; edit the comments there, not this table. -->`,
    '',
    '| variable | default | what it does |',
    '|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

export const readmeOf = (app: string) => path.join(ROOT, 'apps', app, 'README.md');

/** The README with its env section replaced by the current one (it must have the markers). */
export function withEnvSection(readme: string, app: (typeof APPS)[number]): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`apps/${app.name}/README.md has no ${BEGIN} ... ${END} section`);
  return readme.slice(0, begin) + envSection(app) + readme.slice(end + END.length);
}

if (require.main === module) {
  for (const app of APPS) {
    const file = readmeOf(app.name);
    const before = fs.readFileSync(file, 'utf8');
    const after = withEnvSection(before, app);
    if (after !== before) fs.writeFileSync(file, after);
    process.stdout.write(`${after === before ? 'up to date' : 'updated'}: apps/${app.name}/README.md\n`);
  }
}

// Differential conformance harness: the same langgraph.json project (./project) served by the reference JS dev
// server (`@langchain/langgraph-cli` 1.5.1 `dev`, pinned in tools/bench/agent-server/reference) and by this server
// (on a scratch Postgres database), the same script of SDK calls and raw requests against both, the answers
// normalised (ids, timestamps, URLs) and compared call by call. See README.md.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx tools/conformance/agent-server/run.ts [--only=core,wire] [--verbose] [--json=out.json]
import { randomUUID } from 'node:crypto';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { gatewayHeaders, startAgentServer, startReferenceServer, stop, type StartedServer } from '../../bench/agent-server/servers';
import { option } from '../../bench/options';
import { judge } from './harness/judge';
import { normalize } from './harness/normalize';
import { printReport, type Outcome } from './harness/report';
import { SECTIONS, type Section, type Step } from './harness/step';
import { TargetSession, type TargetServer } from './harness/target';
import { SCRIPT } from './script';

const PROJECT = path.join(__dirname, 'project', 'langgraph.json');
const LOG_DIR = path.resolve(__dirname, '../../../tmp/conformance');
const STEP_TIMEOUT_MS = 30_000;

function selectedSteps(): Step[] {
  const only = option('only', '');
  if (!only) return SCRIPT;
  const wanted = only.split(',').map((s) => s.trim());
  const unknown = wanted.filter((s) => !(s in SECTIONS));
  if (unknown.length > 0) throw new Error(`--only: unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
  return SCRIPT.filter((step) => wanted.includes(step.section as Section));
}

async function runStep(step: Step, session: TargetSession): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<unknown>((resolve) => {
    timer = setTimeout(() => resolve({ harness: `no answer within ${STEP_TIMEOUT_MS / 1000} s` }), STEP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([step.run(session), timeout]);
  } catch (err) {
    return { harness: `the call threw: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the script against one server, one call after the other; answers normalised for that server. */
async function runScript(server: TargetServer, steps: Step[]): Promise<unknown[]> {
  const session = new TargetSession(server);
  const answers: unknown[] = [];
  for (const step of steps) answers.push(await runStep(step, session));
  return answers.map((answer) => normalize(answer, { names: session.names, serverUrl: server.url }));
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL (a Postgres server) is required: this server runs on Postgres');
  const steps = selectedSteps();
  const verbose = process.argv.includes('--verbose');
  mkdirSync(LOG_DIR, { recursive: true });
  const started = Date.now();
  const scratch = await createScratchPostgresDatabase(adminUrl);
  const children: StartedServer[] = [];
  try {
    const secret = `conformance-${randomUUID()}`;
    const identity = { tenantId: randomUUID(), organizationId: randomUUID(), subject: 'conformance' };
    const [reference, ours] = await Promise.all([
      startReferenceServer(PROJECT, { fresh: true, log: openSync(path.join(LOG_DIR, 'reference.log'), 'w') }),
      startAgentServer({ databaseUrl: scratch.url, configPath: PROJECT, deploymentKey: secret, log: openSync(path.join(LOG_DIR, 'ours.log'), 'w') }),
    ]);
    children.push(reference, ours);
    console.log(`reference at ${reference.url}, ours at ${ours.url}; ${steps.length} calls; server logs in ${path.relative(process.cwd(), LOG_DIR)}/`);
    const [referenceAnswers, ourAnswers] = await Promise.all([
      runScript({ name: 'reference', url: reference.url, baseHeaders: () => ({}) }, steps),
      runScript({ name: 'ours', url: ours.url, baseHeaders: () => gatewayHeaders(secret, identity) }, steps),
    ]);
    const outcomes: Outcome[] = steps.map((step, i) => ({ step, verdict: judge(step, referenceAnswers[i], ourAnswers[i]) }));
    const jsonOut = option('json', '');
    if (jsonOut) {
      const rows = steps.map((step, i) => ({ section: step.section, name: step.name, reference: referenceAnswers[i], ours: ourAnswers[i] }));
      writeFileSync(jsonOut, JSON.stringify(rows, null, 2));
    }
    const differ = printReport(outcomes, { verbose, print: (line) => console.log(line) });
    console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
    process.exitCode = differ > 0 ? 1 : 0;
  } finally {
    await Promise.all(children.map((c) => stop(c.child)));
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 2;
});

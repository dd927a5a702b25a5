import { show } from './diff';
import type { Verdict } from './judge';
import { SECTIONS, type Owner, type Section, type Step } from './step';

export interface Outcome {
  step: Step;
  verdict: Verdict;
}

export interface ReportOptions {
  /** Print every difference (and the allowed ones), not the first few of each call. */
  verbose: boolean;
  print: (line: string) => void;
}

const SHOWN_PER_CALL = 12;

function printCall({ step, verdict }: Outcome, options: ReportOptions): void {
  const owed = verdict.differences.filter((d) => !d.allowed);
  const allowed = [...new Set([...verdict.prepared, ...verdict.differences.filter((d) => d.allowed).map((d) => d.allowed)])];
  const note = allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '';
  if (verdict.same) {
    options.print(`  same    ${step.name}${note}`);
    if (!options.verbose) return;
  } else {
    options.print(`  DIFFER  ${step.name}  [${verdict.owners.join(', ')}]${note}`);
  }
  const lines = options.verbose ? verdict.differences : owed.slice(0, SHOWN_PER_CALL);
  for (const d of lines) {
    const tag = d.allowed ? `allowed ${d.allowed}` : d.owner;
    options.print(`          ${d.path}  (${tag})`);
    options.print(`            reference: ${show(d.reference)}`);
    options.print(`            ours:      ${show(d.ours)}`);
  }
  if (!options.verbose && owed.length > SHOWN_PER_CALL) options.print(`          … ${owed.length - SHOWN_PER_CALL} more (--verbose shows all)`);
}

/** Prints the calls grouped by section with their diffs, then the counts; returns how many calls differ. */
export function printReport(outcomes: Outcome[], options: ReportOptions): number {
  const bySection = new Map<Section, Outcome[]>();
  for (const outcome of outcomes) bySection.set(outcome.step.section, [...(bySection.get(outcome.step.section) ?? []), outcome]);
  for (const [name, section] of Object.entries(SECTIONS) as [Section, (typeof SECTIONS)[Section]][]) {
    const calls = bySection.get(name);
    if (!calls) continue;
    const same = calls.filter((c) => c.verdict.same).length;
    const owing = [...new Set(calls.flatMap((c) => c.verdict.owners))];
    const owed = owing.length > 0 ? `; owed by ${owing.join(', ')}` : '';
    options.print(`\n== ${section.title} (piece: ${section.owner}) — ${same} same, ${calls.length - same} differ${owed}`);
    for (const call of calls) printCall(call, options);
  }
  const differing = outcomes.filter((o) => !o.verdict.same);
  const byOwner = new Map<Owner, number>();
  for (const o of differing) for (const owner of o.verdict.owners) byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
  options.print('');
  const owners = [...byOwner].sort(([a], [b]) => a.localeCompare(b));
  if (owners.length > 0) options.print(`differing calls by piece: ${owners.map(([owner, n]) => `${owner} ${n}`).join(', ')}`);
  options.print(`${outcomes.length - differing.length} same, ${differing.length} differ`);
  return differing.length;
}

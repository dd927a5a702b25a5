import { diff, type Difference } from './diff';
import { ALLOWANCES, ATTRIBUTIONS, type Answers } from './rules';
import { SECTIONS, type Owner, type Step } from './step';

/** A difference with its verdict: allowed by a listed, justified rule, or owed by a piece of work. */
export interface JudgedDifference extends Difference {
  allowed?: string;
  owner: Owner;
}

export interface Verdict {
  same: boolean;
  differences: JudgedDifference[];
  /** The pieces that owe the differences not allowed. */
  owners: Owner[];
  /** Allowances that rewrote the answers before they were compared. */
  prepared: string[];
}

/**
 * Compares one call's normalised answers. Allowances may first rewrite both (an extra event the reference sends);
 * a difference that an allowance then allows does not count; any other belongs to the piece an attribution names
 * for it, else to the piece that owns the call's section.
 */
export function judge(step: Step, reference: unknown, ours: unknown): Verdict {
  let answers: Answers = { reference, ours };
  const prepared: string[] = [];
  for (const allowance of ALLOWANCES) {
    const rewritten = allowance.prepare?.(answers, step);
    if (rewritten) {
      answers = rewritten;
      prepared.push(allowance.id);
    }
  }
  const differences = diff(answers.reference, answers.ours).map((difference): JudgedDifference => {
    const allowance = ALLOWANCES.find((rule) => rule.applies?.(difference, step, answers));
    const attribution = ATTRIBUTIONS.find((rule) => rule.applies(difference, step));
    return { ...difference, allowed: allowance?.id, owner: attribution?.owner ?? SECTIONS[step.section].owner };
  });
  const owed = differences.filter((d) => !d.allowed);
  return { same: owed.length === 0, differences, owners: [...new Set(owed.map((d) => d.owner))], prepared };
}

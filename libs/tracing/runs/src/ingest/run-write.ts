import type { RunOperation } from './run-operation';

/**
 * Everything one batch says about one run: its creates merged into `post` (the first one sent wins, later ones
 * only fill what it lacks, as a duplicate create is ignored) and its updates merged into `patch` (later ones win).
 */
export interface RunWrite {
  id: string;
  post?: RunOperation;
  patch?: RunOperation;
}

const earliest = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a <= b ? a : b);

/** `winner` over `other`, field by field: what `winner` sent stays, what only `other` sent is added. */
function combine(winner: RunOperation, other: RunOperation): RunOperation {
  return {
    ...winner,
    fields: { ...other.fields, ...winner.fields },
    parentRunId: winner.parentRunId ?? other.parentRunId,
    traceId: winner.traceId ?? other.traceId,
    placement: winner.placement ?? other.placement,
    sessionId: winner.sessionId ?? (winner.sessionName === undefined ? other.sessionId : undefined),
    sessionName: winner.sessionName ?? (winner.sessionId === undefined ? other.sessionName : undefined),
    firstTokenTime: earliest(winner.firstTokenTime, other.firstTokenTime),
    costs: {
      prompt: winner.costs.prompt ?? other.costs.prompt,
      completion: winner.costs.completion ?? other.costs.completion,
      total: winner.costs.total ?? other.costs.total,
    },
  };
}

/** Groups a batch's operations by run, in order of first appearance. */
export function mergeOperations(operations: RunOperation[]): RunWrite[] {
  const writes = new Map<string, RunWrite>();
  for (const op of operations) {
    let write = writes.get(op.id);
    if (!write) {
      write = { id: op.id };
      writes.set(op.id, write);
    }
    if (op.kind === 'post') write.post = write.post ? combine(write.post, op) : op;
    else write.patch = write.patch ? combine(op, write.patch) : op;
  }
  return [...writes.values()];
}

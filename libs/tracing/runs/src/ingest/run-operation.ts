import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { ValidationError, validationErrorFromZod, type ValidationIssue } from '@platform/errors';
import { dottedOrderSegment, parseDottedOrder } from './dotted-order';
import { runPayloadSchema, type RunPayload } from './run-payload.schema';
import { isoFromMicros } from './run-time';
import { firstTokenMicros } from './token-usage';

export type OperationKind = 'post' | 'patch';
export type Loc = (string | number)[];

/** The columns a create or an update sets directly; a field absent here was not sent. */
export interface RunFields {
  name?: string;
  run_type?: string;
  start_time?: string;
  end_time?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  error?: string;
  extra?: Record<string, unknown>;
  events?: unknown[];
  serialized?: Record<string, unknown>;
  tags?: string[];
  reference_example_id?: string;
  trace_tier?: string;
}

/** Where a run sits in its trace, from its dotted order (or, for a root, from being one). */
export interface Placement {
  traceId: string;
  /** Ancestors, root first. */
  parentRunIds: string[];
  dottedOrder: string;
  isRoot: boolean;
}

/** One validated create (`post`) or update (`patch`) of a run, with what can be derived from it alone. */
export interface RunOperation {
  kind: OperationKind;
  id: string;
  /** Where it was in the request (`["body", "post.<id>"]`, `["body", "post", 3]`), for error messages. */
  loc: Loc;
  fields: RunFields;
  parentRunId?: string;
  /** The trace, when the operation tells it (trace_id, dotted order, or a root create). */
  traceId?: string;
  placement?: Placement;
  sessionId?: string;
  sessionName?: string;
  firstTokenTime?: string;
  costs: { prompt?: string | number; completion?: string | number; total?: string | number };
}

const FIELD_NAMES = [
  'name',
  'run_type',
  'start_time',
  'end_time',
  'inputs',
  'outputs',
  'error',
  'extra',
  'events',
  'serialized',
  'tags',
  'reference_example_id',
  'trace_tier',
] as const satisfies readonly (keyof RunFields)[];

function issue(loc: Loc, msg: string, type = 'value_error'): ValidationIssue {
  return { loc: ['body', ...loc], msg, type };
}

/** Validates a value with a schema; issues are located under `loc` (`["body", ...loc, field]`). */
export function parseAt<S extends z.ZodType>(schema: S, value: unknown, loc: Loc): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { issues } = validationErrorFromZod(result.error, 'body', value);
  throw new ValidationError(issues.map((i) => ({ ...i, loc: ['body', ...loc, ...i.loc.slice(1)] })));
}

/** Validates a run payload; issues are located under `loc`. */
export function parseRunPayload(value: unknown, loc: Loc): RunPayload {
  return parseAt(runPayloadSchema, value, loc);
}

function placementFrom(payload: RunPayload, id: string, kind: OperationKind, loc: Loc): Placement | undefined {
  if (payload.dotted_order !== undefined) {
    const segments = parseDottedOrder(payload.dotted_order);
    if (typeof segments === 'string') throw new ValidationError([issue([...loc, 'dotted_order'], segments)]);
    const last = segments[segments.length - 1];
    if (last.id !== id) {
      throw new ValidationError([issue([...loc, 'dotted_order'], `dotted_order must end with the run's id ${id}, not ${last.id}`)]);
    }
    if (payload.trace_id !== undefined && payload.trace_id !== segments[0].id) {
      throw new ValidationError([issue([...loc, 'trace_id'], `trace_id must be the first id of dotted_order (${segments[0].id})`)]);
    }
    const parent = segments.length > 1 ? segments[segments.length - 2].id : undefined;
    if (payload.parent_run_id !== undefined && payload.parent_run_id !== parent) {
      throw new ValidationError([
        issue([...loc, 'parent_run_id'], `parent_run_id must be the id before the run's own in dotted_order (${parent ?? 'none: a root'})`),
      ]);
    }
    return {
      traceId: segments[0].id,
      parentRunIds: segments.slice(0, -1).map((s) => s.id),
      dottedOrder: payload.dotted_order,
      isRoot: segments.length === 1,
    };
  }
  // A create without parent (and not naming another trace) is a root; its dotted order is made from its start time.
  if (kind === 'post' && payload.parent_run_id === undefined && (payload.trace_id === undefined || payload.trace_id === id)) {
    const start = payload.start_time ?? isoFromMicros(Date.now() * 1000);
    return { traceId: id, parentRunIds: [], dottedOrder: dottedOrderSegment(start, id), isRoot: true };
  }
  return undefined;
}

/**
 * Turns a validated payload into an operation: checks the id and the dotted order against each other and derives
 * the trace, ancestors, root flag and first token time. `idHint` is the id the request names the payload by
 * (a multipart part name or the path of `PATCH /runs/{id}`); a payload id must match it.
 */
export function toRunOperation(kind: OperationKind, payload: RunPayload, loc: Loc, idHint?: string): RunOperation {
  if (idHint !== undefined && payload.id !== undefined && payload.id !== idHint) {
    throw new ValidationError([issue([...loc, 'id'], `id ${payload.id} does not match ${idHint}`)]);
  }
  const id = payload.id ?? idHint ?? (kind === 'post' ? randomUUID() : undefined);
  if (id === undefined) throw new ValidationError([issue([...loc, 'id'], 'Field required', 'missing')]);

  const fields: RunFields = {};
  for (const name of FIELD_NAMES) {
    const value = payload[name];
    if (value !== undefined) (fields as Record<string, unknown>)[name] = value;
  }
  const placement = placementFrom(payload, id, kind, loc);
  if (kind === 'post' && fields.start_time === undefined) {
    // A create needs a start time: the dotted order's, else now.
    const segments = placement ? parseDottedOrder(placement.dottedOrder) : undefined;
    fields.start_time = Array.isArray(segments) ? segments[segments.length - 1].time : isoFromMicros(Date.now() * 1000);
  }
  const firstToken = firstTokenMicros(payload.events);
  return {
    kind,
    id,
    loc,
    fields,
    parentRunId: placement ? placement.parentRunIds[placement.parentRunIds.length - 1] : payload.parent_run_id,
    traceId: placement?.traceId ?? payload.trace_id,
    placement,
    sessionId: payload.session_id,
    sessionName: payload.session_id === undefined ? payload.session_name : undefined,
    firstTokenTime: firstToken === undefined ? undefined : isoFromMicros(firstToken),
    costs: { prompt: payload.prompt_cost, completion: payload.completion_cost, total: payload.total_cost },
  };
}

/** Parses and derives one payload, plus the creates of its nested `child_runs` (legacy run trees). */
export function runOperations(kind: OperationKind, value: unknown, loc: Loc, idHint?: string): RunOperation[] {
  const payload = parseRunPayload(value, loc);
  const op = toRunOperation(kind, payload, loc, idHint);
  const ops = [op];
  payload.child_runs?.forEach((child, i) => {
    const childLoc = [...loc, 'child_runs', i];
    const childPayload = parseRunPayload(child, childLoc);
    // Children inherit what places them: the parent, its trace, its project and its dotted order.
    childPayload.parent_run_id ??= op.id;
    childPayload.trace_id ??= op.traceId;
    if (childPayload.session_id === undefined && childPayload.session_name === undefined) {
      childPayload.session_id = op.sessionId;
      childPayload.session_name = op.sessionName;
    }
    if (childPayload.dotted_order === undefined && op.placement && childPayload.parent_run_id === op.id) {
      const childId = childPayload.id ?? randomUUID();
      childPayload.id = childId;
      // A create always has a start time (toRunOperation sets one).
      const start = childPayload.start_time ?? op.fields.start_time ?? isoFromMicros(Date.now() * 1000);
      childPayload.dotted_order = `${op.placement.dottedOrder}.${dottedOrderSegment(start, childId)}`;
    }
    ops.push(...runOperations('post', childPayload, childLoc));
  });
  return ops;
}

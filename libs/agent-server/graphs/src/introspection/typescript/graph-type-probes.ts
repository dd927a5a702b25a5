/**
 * Type-level helpers compiled beside a graph's source to read its state, input, output and config types, as the
 * reference server (`@langchain/langgraph-api`) reads them: the state is what the compiled graph accepts as input
 * (its update type), input/output/config come from the builder's definitions, each one "inspected" three levels
 * deep with message types kept whole. The schemas the reference answers with depend on these exact semantics.
 *
 * `PregelLike`/`BuilderLike` are looked up by name to tell which variables hold (sub)graphs.
 */
export const GRAPH_TYPE_PROBES = `
import type { BaseMessage } from "@langchain/core/messages";
import type { StateDefinition, StateType, UpdateType } from "@langchain/langgraph";

// @ts-ignore
type PregelLike = { lg_is_pregel: boolean; stream: (...args: any[]) => any; invoke: (...args: any[]) => any };
// @ts-ignore
type BuilderLike = { compiled: boolean; compile: (...args: any[]) => any };

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type AsMessage<T> = T extends BaseMessage ? BaseMessage : never;
type AsMessageList<T> = T extends Array<infer Item> ? (Same<AsMessage<Item>, BaseMessage> extends true ? BaseMessage[] : never) : never;
type WithoutOverwrite<T> = Exclude<T, { __overwrite__: any }>;
type Unfactory<T> = T extends (...args: any[]) => infer R ? Awaited<R> : Awaited<T>;
type NotAny<T> = 0 extends 1 & T ? never : T;

// @ts-ignore
type Probe<T, Depth extends Array<0> = []> = Depth extends [0, 0, 0]
  ? any
  : T extends unknown
    ? {
        [K in keyof T]: 0 extends 1 & T[K]
          ? T[K]
          : Same<AsMessageList<WithoutOverwrite<T[K]>>, BaseMessage[]> extends true
            ? BaseMessage[]
            : Same<AsMessage<WithoutOverwrite<T[K]>>, BaseMessage> extends true
              ? BaseMessage
              : Probe<WithoutOverwrite<T[K]>, [0, ...Depth]>;
      }
    : never;

// What the compiled graph takes as an update (the reference's quirk kept: an older Runnable typing gives RunOutput).
type UpdateOf<G> = G extends { RunInput: any; RunOutput: infer O }
  ? O
  : G extends { "~InputType": infer I; "~OutputType": any }
    ? I
    : never;
// @ts-ignore
type CompiledUpdate<T> = Unfactory<T> extends infer G ? (G extends { compile(...args: any[]): infer C } ? UpdateOf<C> : UpdateOf<G>) : never;

type Definitions<G> = G extends {
  builder: {
    _inputDefinition: infer I extends StateDefinition;
    _outputDefinition: infer O extends StateDefinition;
    _configSchema?: infer C extends StateDefinition | undefined;
  };
}
  ? { input: UpdateType<I>; output: StateType<O>; config: UpdateType<Exclude<C, undefined>> }
  : never;
// @ts-ignore
type CompiledDefinitions<T> = Unfactory<T> extends infer G ? (G extends { compile(...args: any[]): infer C } ? Definitions<C> : Definitions<G>) : never;
`;

/** The probe aliases for one graph (`alias` is `typeof <the graph's variable>`), exported for the generator. */
export function graphProbeAliases(alias: string): string {
  return [
    `export type ${alias}__state = Probe<CompiledUpdate<${alias}>>;`,
    `export type ${alias}__input = Probe<NotAny<CompiledDefinitions<${alias}>["input"]>>;`,
    `export type ${alias}__output = Probe<NotAny<CompiledDefinitions<${alias}>["output"]>>;`,
    `export type ${alias}__config = Probe<NotAny<CompiledDefinitions<${alias}>["config"]>>;`,
  ].join('\n');
}

import type { BaseMessage } from '@langchain/core/messages';
import { Annotation, MessagesAnnotation, MessagesValue, messagesStateReducer, ReducedValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { registry, withLangGraph } from '@langchain/langgraph/zod';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { runtimeGraphSchema } from './runtime-graph-schema';

// Each graph gets one do-nothing node: the schemas depend on the state definitions only.
function compile(builder: unknown) {
  const graph = builder as { addNode(name: string, fn: () => object): { addEdge(a: string, b: string): { compile(): unknown } } };
  return graph.addNode('node', () => ({})).addEdge(START, 'node').compile();
}

describe('runtimeGraphSchema (the reference server’s runtime tiers)', () => {
  it('converts zod 4 states: state and input partial (nothing required), output whole, context as config', () => {
    const State = z.object({ question: z.string().describe('What was asked'), count: z.number().default(0) });
    const schema = runtimeGraphSchema(compile(new StateGraph(State, z.object({ model: z.string() }))));

    expect(schema?.state).toMatchObject({ type: 'object', properties: { question: { type: 'string', description: 'What was asked' }, count: { type: 'number' } } });
    expect(schema?.state?.required).toBeUndefined();
    expect(schema?.input).toEqual(schema?.state);
    expect(schema?.output).toMatchObject({ required: ['question', 'count'] });
    expect(schema?.config).toMatchObject({ properties: { model: { type: 'string' } }, required: ['model'] });
  });

  it('gives up on zod 4 custom messages as the reference does, keeping what converts (the context)', () => {
    const State = z.object({ messages: z.custom<BaseMessage[]>().register(registry, { reducer: { fn: messagesStateReducer }, default: () => [] }) });
    const schema = runtimeGraphSchema(compile(new StateGraph(State, z.object({ model: z.string() }))));

    expect(schema).toEqual({ state: undefined, input: undefined, output: undefined, config: expect.objectContaining({ type: 'object' }) });
  });

  it('reads zod 3 schemas with withLangGraph metadata through LangGraph’s registry', () => {
    const State = z3.object({
      messages: withLangGraph(z3.custom<BaseMessage[]>(), {
        reducer: { schema: z3.custom<BaseMessage[]>(), fn: messagesStateReducer },
        jsonSchemaExtra: { langgraph_type: 'messages' },
        default: () => [],
      }),
      question: z3.string(),
    });
    const schema = runtimeGraphSchema(compile(new StateGraph(State)));

    expect(schema?.state).toMatchObject({ properties: { messages: { langgraph_type: 'messages' }, question: { type: 'string' } } });
    expect(schema?.output).toMatchObject({ required: ['question'] });
    expect(schema?.config).toBeUndefined();
  });

  it('asks a StateSchema for its own JSON Schemas (input partial) and has no config', () => {
    const State = new StateSchema({
      messages: MessagesValue,
      total: new ReducedValue(z.number().default(0), { inputSchema: z.number(), reducer: (a: number, b: number) => a + b }),
    });
    const schema = runtimeGraphSchema(compile(new StateGraph(State)));

    expect(schema?.state).toMatchObject({ type: 'object', properties: { messages: { langgraph_type: 'messages' }, total: { type: 'number', default: 0 } } });
    expect(schema?.input).toMatchObject({ properties: { total: { type: 'number' } } });
    expect((schema?.input?.properties as Record<string, object>).total).not.toHaveProperty('default');
    expect(schema).not.toHaveProperty('config');
  });

  it('has nothing for Annotation states (their TypeScript types tell) nor for what is not a graph', () => {
    expect(runtimeGraphSchema(compile(new StateGraph(MessagesAnnotation)))).toBeUndefined();
    expect(runtimeGraphSchema(compile(new StateGraph(Annotation.Root({ note: Annotation<string> }))))).toBeUndefined();
    expect(runtimeGraphSchema({})).toBeUndefined();
    expect(runtimeGraphSchema(null)).toBeUndefined();
  });
});

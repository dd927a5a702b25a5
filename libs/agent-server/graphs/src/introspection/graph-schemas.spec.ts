import { z } from 'zod';
import type { BaseMessage } from '@langchain/core/messages';
import { z as z3 } from 'zod/v3';
import { Annotation, MessagesAnnotation, MessagesValue, MessagesZodMeta, MessagesZodState, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { registry } from '@langchain/langgraph/zod';
import { graphSchemas } from './graph-schemas';

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; langgraph_type?: string };

const messagesProperty = { type: 'array', langgraph_type: 'messages', items: expect.objectContaining({ type: 'object' }) };

function compile<S>(builder: { addNode(name: string, fn: () => object): S }) {
  return (builder.addNode('node', () => ({})) as unknown as { addEdge(a: string, b: string): { compile(): never } }).addEdge(START, 'node').compile();
}

describe('graphSchemas', () => {
  it('derives Annotation states from their channels: messages, reducer defaults, plain values', () => {
    const State = Annotation.Root({
      ...MessagesAnnotation.spec,
      count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
      tags: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
      note: Annotation<string>,
    });
    const schemas = graphSchemas(compile(new StateGraph(State)));

    const state = schemas.state_schema as Schema;
    expect(state).toMatchObject({ type: 'object', properties: { messages: messagesProperty, count: { type: 'number' }, tags: { type: 'array' }, note: {} } });
    expect(schemas.input_schema).toMatchObject({ type: 'object', properties: { messages: messagesProperty } });
    expect(schemas.output_schema).toMatchObject({ type: 'object', properties: { count: { type: 'number' } } });
    expect(schemas.config_schema).toBeNull();
    expect(schemas.context_schema).toBeNull();
  });

  it('keeps separate input and output schemas apart', () => {
    const Input = Annotation.Root({ question: Annotation<string> });
    const Output = Annotation.Root({ answer: Annotation<string> });
    const State = Annotation.Root({ question: Annotation<string>, answer: Annotation<string>, scratch: Annotation<string> });
    const schemas = graphSchemas(compile(new StateGraph({ state: State, input: Input, output: Output })));

    expect(Object.keys((schemas.input_schema as Schema).properties ?? {})).toEqual(['question']);
    expect(Object.keys((schemas.output_schema as Schema).properties ?? {})).toEqual(['answer']);
    expect(Object.keys((schemas.state_schema as Schema).properties ?? {})).toEqual(['question', 'answer', 'scratch']);
  });

  it('converts zod v4 states (z.custom messages included) and the context schema', () => {
    const State = z.object({ messages: z.custom<BaseMessage[]>().register(registry, { ...MessagesZodMeta }), count: z.number().default(0) });
    const Context = z.object({ model: z.string().describe('Which model to call') });
    const schemas = graphSchemas(compile(new StateGraph(State, { context: Context })));

    expect(schemas.state_schema).toMatchObject({ type: 'object', properties: { messages: messagesProperty, count: { type: 'number', default: 0 } } });
    // Input is the state made partial: nothing is required.
    expect((schemas.input_schema as Schema).required).toBeUndefined();
    expect(schemas.context_schema).toMatchObject({ type: 'object', properties: { model: { type: 'string', description: 'Which model to call' } }, required: ['model'] });
    expect(schemas.config_schema).toEqual(schemas.context_schema);
  });

  it('converts zod v3 states and StateSchema states', () => {
    const v3 = graphSchemas(compile(new StateGraph(MessagesZodState.extend({ turn: z3.number() }))));
    expect(v3.state_schema).toMatchObject({ properties: { messages: messagesProperty, turn: { type: 'number' } } });

    const stateSchema = graphSchemas(compile(new StateGraph(new StateSchema({ messages: MessagesValue, count: z.number().default(0) }))));
    expect(stateSchema.state_schema).toMatchObject({ properties: { messages: messagesProperty, count: { type: 'number' } } });
  });

  it('has nothing to say about a graph without a builder', () => {
    const graph = compile(new StateGraph(MessagesAnnotation)) as unknown as { builder?: unknown };
    delete graph.builder;
    expect(graphSchemas(graph as never)).toEqual({ input_schema: null, output_schema: null, state_schema: null, config_schema: null, context_schema: null });
  });
});

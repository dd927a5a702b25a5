// zod-based graphs: their schemas come from the runtime (zod 4 with LangGraph's registry, zod 3 with
// withLangGraph, StateSchema), not from the TypeScript compiler.
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessage } from '@langchain/core/messages';
import { MessagesValue, MessagesZodMeta, ReducedValue, START, StateGraph, StateSchema } from '@langchain/langgraph';
import { registry, withLangGraph } from '@langchain/langgraph/zod';
import { messagesStateReducer } from '@langchain/langgraph';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';

const Zod4State = z.object({
  messages: z.custom<BaseMessage[]>().register(registry, { ...MessagesZodMeta }),
  mood: z.enum(['calm', 'busy']).describe('How the agent feels'),
  count: z.number().default(0),
});
const Zod4Context = z.object({ model: z.string().describe('Which model to call'), retries: z.number().optional() });

export const zod4 = new StateGraph(Zod4State, Zod4Context)
  .addNode('respond', () => ({ messages: [new AIMessage('zod 4')], count: 1 }))
  .addEdge(START, 'respond')
  .compile();

const Zod3State = z3.object({
  messages: withLangGraph(z3.custom<BaseMessage[]>(), {
    reducer: { schema: z3.custom<BaseMessage[]>(), fn: messagesStateReducer },
    jsonSchemaExtra: { langgraph_type: 'messages' },
    default: () => [],
  }),
  question: z3.string(),
  answer: z3.string().optional(),
});

export const zod3 = new StateGraph(Zod3State)
  .addNode('respond', (state) => ({ answer: `zod 3: ${state.question}` }))
  .addEdge(START, 'respond')
  .compile();

const Schema = new StateSchema({
  messages: MessagesValue,
  total: new ReducedValue(z.number().default(0), { inputSchema: z.number(), reducer: (a: number, b: number) => a + b }),
  label: z.string().optional(),
});

export const stateSchema = new StateGraph(Schema)
  .addNode('respond', () => ({ messages: [new AIMessage('state schema')], total: 2 }))
  .addEdge(START, 'respond')
  .compile();

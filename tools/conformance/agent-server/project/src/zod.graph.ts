// A graph whose state, input, output and context are zod (v4) schemas, with a reducer from LangGraph's registry.
import { z } from 'zod';
import { StateGraph } from '@langchain/langgraph';
import { registry } from '@langchain/langgraph/zod';

const State = z.object({
  items: z
    .array(z.string())
    .register(registry, { reducer: { fn: (a: string[], b: string[]) => a.concat(b) }, default: () => [] })
    .describe('Items collected so far'),
  count: z.number().describe('How many items were added').optional(),
});

const Input = z.object({ items: z.array(z.string()).describe('Items to add') });
const Output = z.object({ items: z.array(z.string()), count: z.number().optional() });
const Context = z.object({ prefix: z.string().describe('Put before every item').optional() });

export const graph = new StateGraph({ state: State, input: Input, output: Output, context: Context })
  .addNode('add', (state, runtime) => {
    const prefix = runtime.context?.prefix ?? '';
    return { items: state.items.slice(-1).map((item) => `${prefix}${item}!`), count: state.items.length + 1 };
  })
  .addEdge('__start__', 'add')
  .addEdge('add', '__end__')
  .compile();

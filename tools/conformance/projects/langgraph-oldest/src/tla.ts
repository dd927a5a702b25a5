// Top-level await: this module cannot be required, so it loads as ESM.
import { Annotation, START, StateGraph } from '@langchain/langgraph';

const prefix = await Promise.resolve('tla');

const State = Annotation.Root({ visits: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });

export const graph = new StateGraph(State)
  .addNode('start', () => ({ visits: [`${prefix}:start`] }), { ends: ['visit'] })
  .addNode('visit', (input: { who: string }) => ({ visits: [`${prefix}:${input.who}`] }))
  .addEdge(START, 'start')
  .compile();

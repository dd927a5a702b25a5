// A plain JavaScript graph: no types for the TypeScript compiler to read.
import { Annotation, START, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({ value: Annotation() });

export const graph = new StateGraph(State)
  .addNode('step', () => ({ value: 'done' }))
  .addEdge(START, 'step')
  .compile();

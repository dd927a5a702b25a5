// A graph whose second node fails, for how a failed run, its thread and its stream look.
import { Annotation, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({ steps: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }) });

export const graph = new StateGraph(State)
  .addNode('first', () => ({ steps: ['first'] }))
  .addNode('second', (): typeof State.Update => {
    throw new TypeError('the second step failed');
  })
  .addEdge('__start__', 'first')
  .addEdge('first', 'second')
  .addEdge('second', '__end__')
  .compile();

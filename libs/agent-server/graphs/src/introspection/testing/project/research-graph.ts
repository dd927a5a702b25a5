// A subgraph defined in its own file and imported by annotation-graph.ts, itself with a nested subgraph.
import { Annotation, START, StateGraph } from '@langchain/langgraph';

const NotesState = Annotation.Root({
  topic: Annotation<string>,
  notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

const summarize = new StateGraph(NotesState)
  .addNode('summarize', (state) => ({ notes: [`summary of ${state.topic}`] }))
  .addEdge(START, 'summarize')
  .compile();

export const research = new StateGraph(NotesState)
  .addNode('search', (state) => ({ notes: [`found ${state.topic}`] }))
  .addNode('digest', summarize)
  .addEdge(START, 'search')
  .addEdge('search', 'digest')
  .compile();

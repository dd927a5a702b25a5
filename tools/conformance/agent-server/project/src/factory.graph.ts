// A graph factory: the server builds the graph from each run's (and each state read's) config.
import { Annotation, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';

const State = Annotation.Root({
  greeting: Annotation<string>,
  built_for: Annotation<string>,
});

export const graph = (config: LangGraphRunnableConfig) => {
  const flavour = typeof config.configurable?.['flavour'] === 'string' ? config.configurable['flavour'] : 'plain';
  return new StateGraph(State)
    .addNode(`greet_${flavour}`, () => ({ greeting: `hello (${flavour})`, built_for: flavour }))
    .addEdge('__start__', `greet_${flavour}`)
    .addEdge(`greet_${flavour}`, '__end__')
    .compile();
};

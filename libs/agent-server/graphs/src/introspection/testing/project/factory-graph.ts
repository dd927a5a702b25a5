// A graph factory: built per use with the run's, thread's or assistant's config (and, from the reference's
// server, a runtime saying what it is built for).
import { AIMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { Annotation, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  variant: Annotation<string>,
});

export const graph = async (config: LangGraphRunnableConfig) => {
  const variant = String(config.configurable?.['variant'] ?? 'plain');
  // The node's name depends on the config: a graph built without it has no such node.
  const node = `respond_${variant}`;
  return new StateGraph(State)
    .addNode(node, () => ({ messages: [new AIMessage(`variant ${variant}`)], variant }))
    .addEdge(START, node)
    .compile();
};

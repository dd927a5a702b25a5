// A langgraph.json project exporting a graph in every form the loader accepts (see load-langgraph-project.spec.ts).
import type { RunnableConfig } from '@langchain/core/runnables';
import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

// Read when the module loads: the project's env must be applied by then.
const greeting = process.env.FIXTURE_GREETING ?? 'unset';

function respondingGraph(label: string) {
  return new StateGraph(MessagesAnnotation)
    .addNode('respond', () => ({ messages: [new AIMessage(`${greeting} from ${label}`)] }))
    .addEdge(START, 'respond');
}

export const builder = respondingGraph('builder');
export const compiled = respondingGraph('compiled').compile();
export const promised = Promise.resolve(respondingGraph('promised').compile());
export const factory = (config: RunnableConfig) => respondingGraph(`factory for ${String(config.configurable?.user ?? 'nobody')}`);

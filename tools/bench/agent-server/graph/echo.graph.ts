// The benchmark's graph: one node that appends a reply to the messages it was given. Both servers load this
// same file, so the comparison measures the servers, not the graphs.
import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('reply', (state: typeof MessagesAnnotation.State) => ({
    messages: [new AIMessage(`echo: ${String(state.messages.at(-1)?.content ?? '')}`)],
  }))
  .addEdge('__start__', 'reply')
  .addEdge('reply', '__end__')
  .compile();

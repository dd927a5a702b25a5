import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('reply', () => ({ messages: [new AIMessage('installed with yarn')] }))
  .addEdge(START, 'reply')
  .compile();

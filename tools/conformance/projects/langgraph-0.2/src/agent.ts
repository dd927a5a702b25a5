import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

export const graph = new StateGraph(MessagesAnnotation)
  .addNode('reply', () => ({ messages: [new AIMessage('hello from LangGraph.js 0.2')] }))
  .addEdge(START, 'reply')
  .compile();

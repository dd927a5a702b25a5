import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';

export default new StateGraph(MessagesAnnotation)
  .addNode('respond', () => ({ messages: [new AIMessage('default export')] }))
  .addEdge(START, 'respond')
  .compile();

import { AIMessage, SystemMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { createChatModel } from './chat-model';
import { tools } from './tools';

const SYSTEM_PROMPT = 'You are a helpful assistant. Use get_weather for weather questions and calculator for arithmetic.';

const model = createChatModel();
if (!model.bindTools) throw new Error(`${model.getName()} cannot call tools`);
const modelWithTools = model.bindTools(tools);

async function callModel(state: typeof MessagesAnnotation.State) {
  const response = await modelWithTools.invoke([new SystemMessage(SYSTEM_PROMPT), ...state.messages]);
  return { messages: [response] };
}

// Tool calls go to the tools node; a plain answer ends the turn.
function routeAfterModel(state: typeof MessagesAnnotation.State): 'tools' | typeof END {
  const last = state.messages.at(-1);
  return AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
}

/** A ReAct agent: the model answers or calls tools, tool results go back to the model. */
export const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', callModel)
  .addNode('tools', new ToolNode(tools))
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', routeAfterModel, ['tools', END])
  .addEdge('tools', 'agent')
  .compile();

graph.name = 'ReAct agent';

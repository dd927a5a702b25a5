import { createHash } from 'node:crypto';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BaseChatModelParams, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, AIMessageChunk, type BaseMessage, type ToolCall } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';

/** What the model says next: text, or text plus one tool call. */
export interface ScriptedReply {
  content: string;
  toolCall?: ToolCall & { id: string };
}

export interface ScriptedChatModelParams extends BaseChatModelParams {
  /** Names of the bound tools (set by `bindTools`). */
  toolNames?: string[];
}

const ARITHMETIC = /[-+(]*\s*\d[\d.\s]*(?:[-+*/%^]\s*[-+(]*\s*[\d.]+[\s)]*)+/;
const CITY = /\b(?:in|for|at)\s+([A-Z][\p{L}'-]*(?:\s+[A-Z][\p{L}'-]*)*)/u;

function textOf(message: BaseMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((block) => (typeof block === 'string' ? block : block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

function toolName(definition: BindToolsInput): string {
  return convertToOpenAITool(definition).function.name;
}

function callId(turn: number, name: string, args: Record<string, unknown>): string {
  return `call_${createHash('sha1').update(`${turn}:${name}:${JSON.stringify(args)}`).digest('hex').slice(0, 20)}`;
}

// The call for a new question: arithmetic goes to the calculator, anything else asks for the weather.
function chooseToolCall(text: string, toolNames: string[], turn: number): ScriptedReply['toolCall'] {
  const expression = text.match(ARITHMETIC)?.[0].trim();
  let name: string | undefined;
  let args: Record<string, unknown> = {};
  if (expression && toolNames.includes('calculator')) {
    name = 'calculator';
    args = { expression };
  } else if (toolNames.includes('get_weather')) {
    name = 'get_weather';
    args = { city: text.match(CITY)?.[1] ?? 'San Francisco' };
  }
  return name ? { name, args, id: callId(turn, name, args), type: 'tool_call' } : undefined;
}

function answerFromTool(toolName: string | undefined, result: string): string {
  if (toolName === 'get_weather') return `Here is the current weather: ${result}`;
  if (toolName === 'calculator') return `The calculator worked it out: ${result}`;
  return `The ${toolName ?? 'tool'} tool returned: ${result}`;
}

/**
 * The reply a scripted conversation calls for. A new human message is answered with a tool call (when tools
 * are bound and one fits); a tool result is answered with text that includes it; anything else is echoed.
 */
export function scriptedReply(messages: BaseMessage[], toolNames: string[]): ScriptedReply {
  const last = messages.at(-1);
  if (!last) return { content: 'Hello! Ask me about the weather or give me a sum to work out.' };
  const type = last.getType();
  if (type === 'tool') return { content: answerFromTool(last.name, textOf(last)) };
  const text = textOf(last);
  if (type === 'human') {
    const toolCall = chooseToolCall(text, toolNames, messages.length);
    if (toolCall) return { content: '', toolCall };
  }
  return { content: `You said: ${text}` };
}

/**
 * A deterministic chat model for running the agent without an API key. It is a real BaseChatModel: it binds
 * tools, generates whole replies and streams them token by token (tool calls as tool-call chunks).
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly toolNames: string[];

  constructor(fields: ScriptedChatModelParams = {}) {
    super(fields);
    this.toolNames = fields.toolNames ?? [];
  }

  static override lc_name(): string {
    return 'ScriptedChatModel';
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: BindToolsInput[]): ScriptedChatModel {
    return new ScriptedChatModel({ callbacks: this.callbacks, tags: this.tags, metadata: this.metadata, toolNames: tools.map(toolName) });
  }

  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const { content, toolCall } = scriptedReply(messages, this.toolNames);
    const message = new AIMessage({ content, tool_calls: toolCall ? [toolCall] : [] });
    return { generations: [{ text: content, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const { content, toolCall } = scriptedReply(messages, this.toolNames);
    const pieces = content.match(/\S+\s*/g) ?? [];
    for (const piece of pieces) {
      const chunk = new ChatGenerationChunk({ text: piece, message: new AIMessageChunk({ content: piece }) });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
    if (toolCall) {
      const message = new AIMessageChunk({
        content: '',
        tool_call_chunks: [{ name: toolCall.name, args: JSON.stringify(toolCall.args), id: toolCall.id, index: 0, type: 'tool_call_chunk' }],
      });
      const chunk = new ChatGenerationChunk({ text: '', message });
      yield chunk;
      await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

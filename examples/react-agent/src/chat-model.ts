import { ChatAnthropic } from '@langchain/anthropic';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatOpenAI } from '@langchain/openai';
import { ScriptedChatModel } from './scripted-chat-model';

/**
 * The agent's chat model: OpenAI when OPENAI_API_KEY is set, Anthropic when ANTHROPIC_API_KEY is set, else the
 * deterministic scripted model (so the agent runs, and streams, with no key at all).
 */
export function createChatModel(env: NodeJS.ProcessEnv = process.env): BaseChatModel {
  if (env.OPENAI_API_KEY) return new ChatOpenAI({ model: env.OPENAI_MODEL ?? 'gpt-4o-mini', temperature: 0 });
  if (env.ANTHROPIC_API_KEY) return new ChatAnthropic({ model: env.ANTHROPIC_MODEL ?? 'claude-3-5-haiku-latest', temperature: 0 });
  return new ScriptedChatModel();
}

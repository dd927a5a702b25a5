import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { InputError } from '@platform/errors';
import { importExport } from './graph-module-loader';
import { parseGraphSpec } from './graph-spec';

/** LangChain's `Embeddings`, as far as the store uses them. */
export type LoadedEmbeddings = Pick<EmbeddingsInterface, 'embedDocuments' | 'embedQuery'>;

type EmbedFunction = (texts: string[]) => Promise<number[][]> | number[][];

function isEmbeddings(value: unknown): value is LoadedEmbeddings {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.embedDocuments === 'function' && typeof candidate.embedQuery === 'function';
}

// A module path (`./src/embed.ts:embed`, `/abs/embed.js`) rather than `provider:model`.
const isModuleSpec = (embed: string) => /^(\.{1,2}[\\/]|[\\/])/.test(embed) || /\.[cm]?[jt]s(:|$)/.test(embed);

// Providers this server ships (`provider:model`, as LangChain's `initEmbeddings` spells them).
const PROVIDERS: Record<string, (model: string) => Promise<LoadedEmbeddings>> = {
  openai: async (model) => {
    // Refused at start-up rather than at every put and search.
    if (!process.env.OPENAI_API_KEY) throw new InputError(`store.index.embed: openai:${model} needs OPENAI_API_KEY in the deployment's env`);
    const { OpenAIEmbeddings } = await import('@langchain/openai');
    return new OpenAIEmbeddings({ model });
  },
};

async function fromModule(embed: string, dir: string): Promise<LoadedEmbeddings> {
  const spec = parseGraphSpec(embed);
  const value = await importExport(spec, dir, 'store.index.embed');
  if (isEmbeddings(value)) return value;
  if (typeof value === 'function') {
    const embedTexts = value as EmbedFunction;
    return {
      embedDocuments: async (texts) => embedTexts(texts),
      embedQuery: async (text) => (await embedTexts([text]))[0],
    };
  }
  throw new InputError(`store.index.embed: export '${spec.exportName}' of ${spec.file} is neither an Embeddings object nor a function of texts`);
}

/**
 * The embeddings `store.index.embed` names: `provider:model` (`openai:text-embedding-3-small`; the provider's
 * API key comes from the environment, e.g. OPENAI_API_KEY) or `path:export` relative to langgraph.json, whose
 * export is an `Embeddings` object or an async function from texts to vectors. An InputError says what is wrong.
 */
export async function loadStoreEmbeddings(embed: string, dir: string): Promise<LoadedEmbeddings> {
  if (isModuleSpec(embed)) return fromModule(embed, dir);
  const colon = embed.indexOf(':');
  const provider = colon > 0 ? embed.slice(0, colon) : '';
  const model = embed.slice(colon + 1).trim();
  const create = Object.hasOwn(PROVIDERS, provider) ? PROVIDERS[provider] : undefined;
  if (!create || !model) {
    throw new InputError(`store.index.embed: '${embed}' is neither provider:model (providers: ${Object.keys(PROVIDERS).join(', ')}) nor path:export`);
  }
  return create(model);
}

import type { StoreEmbeddings } from './store-index';

/**
 * Deterministic embeddings for tests: one dimension per vocabulary word, holding how often the word occurs in
 * the text (case-insensitive). Texts about the same words are similar; it records every call.
 */
export class VocabularyEmbeddings implements StoreEmbeddings {
  readonly documents: string[][] = [];
  readonly queries: string[] = [];

  constructor(readonly vocabulary: readonly string[]) {}

  get dims(): number {
    return this.vocabulary.length;
  }

  vector(text: string): number[] {
    const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
    return this.vocabulary.map((word) => words.filter((w) => w === word).length);
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.documents.push(texts);
    return texts.map((text) => this.vector(text));
  }

  async embedQuery(text: string): Promise<number[]> {
    this.queries.push(text);
    return this.vector(text);
  }
}

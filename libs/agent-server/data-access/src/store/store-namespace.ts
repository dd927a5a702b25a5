import { InvalidNamespaceError } from '@langchain/langgraph-checkpoint';

/**
 * Checks a namespace's labels as LangGraph's stores do (non-empty strings without ".", since the namespace is kept
 * joined by "."); an empty namespace passes only where `allowEmpty` (reads, deletes, search prefixes).
 */
export function checkNamespace(namespace: string[], options: { allowEmpty?: boolean } = {}): void {
  if (!Array.isArray(namespace)) throw new InvalidNamespaceError('Namespace must be an array of strings.');
  if (namespace.length === 0 && !options.allowEmpty) throw new InvalidNamespaceError('Namespace cannot be empty.');
  for (const label of namespace) {
    if (typeof label !== 'string') throw new InvalidNamespaceError(`Namespace labels must be strings, got ${typeof label}.`);
    if (label === '') throw new InvalidNamespaceError('Namespace labels cannot be empty strings.');
    if (label.includes('.')) throw new InvalidNamespaceError(`Invalid namespace label '${label}': labels cannot contain periods ('.').`);
  }
}

/** The stored form of a namespace: its labels joined by ".". */
export const joinNamespace = (namespace: string[]): string => namespace.join('.');

/** The labels of a stored namespace. */
export const splitNamespace = (prefix: string): string[] => (prefix === '' ? [] : prefix.split('.'));

/** A LIKE pattern matching the namespaces strictly below `prefix` (its metacharacters escaped for `ESCAPE '\'`). */
export const descendantsPattern = (prefix: string): string => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}.%`;

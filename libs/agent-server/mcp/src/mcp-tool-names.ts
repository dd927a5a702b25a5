/** MCP tool names: 1–64 characters of `A-Za-z0-9_.-` (the 2025-11-25 spec's rule, which older clients accept too). */
export const MAX_TOOL_NAME_LENGTH = 64;

export interface NamedAssistant {
  assistant_id: string;
  name: string;
}

/** The assistant name as a tool name: each run of other characters becomes `_`, cut to 64; `assistant` if nothing is left. */
export function baseToolName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, MAX_TOOL_NAME_LENGTH);
  return /[A-Za-z0-9]/.test(cleaned) ? cleaned : 'assistant';
}

const withSuffix = (base: string, suffix: string) => `${base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length - 1)}_${suffix}`;

/**
 * One unique tool name per assistant, in the order given (oldest first). The first assistant with a name keeps
 * it plain, so creating a namesake later never renames an existing tool; the others get part of their id
 * (8 hex digits, else all 32), which is stable for as long as they exist.
 */
export function assignToolNames<T extends NamedAssistant>(assistants: readonly T[]): { name: string; assistant: T }[] {
  const taken = new Set<string>();
  const names: (string | undefined)[] = assistants.map((assistant) => {
    const base = baseToolName(assistant.name);
    if (taken.has(base)) return undefined;
    taken.add(base);
    return base;
  });
  return assistants.map((assistant, i) => {
    let name = names[i];
    if (name === undefined) {
      const base = baseToolName(assistant.name);
      const hex = assistant.assistant_id.replace(/-/g, '').toLowerCase();
      name = [withSuffix(base, hex.slice(0, 8)), withSuffix(base, hex)].find((candidate) => !taken.has(candidate));
      // Only when other assistants are literally named after this one's id: count up until free.
      for (let n = 2; name === undefined; n++) if (!taken.has(withSuffix(base, `${hex}_${n}`))) name = withSuffix(base, `${hex}_${n}`);
      taken.add(name);
    }
    return { name, assistant };
  });
}

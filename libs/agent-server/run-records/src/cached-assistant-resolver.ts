import type { Notifications } from '@platform/prisma';
import type { Logger } from '@platform/logging';
import type { AssistantResolver, RunAssistant } from './run-kwargs';

/** The channel a trigger on `assistants` notifies with the id of every assistant inserted, updated or deleted. */
export const ASSISTANT_CHANGES_CHANNEL = 'agent_assistants';

export interface CachedAssistantResolver extends AssistantResolver {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Resolves assistants for run creation once and keeps them: every run would otherwise read its assistant first.
 * An entry goes when its assistant changes on any replica (the trigger's NOTIFY), when the listener reconnects
 * (changes may have been missed), and after `ttlMs` as a last resort.
 */
export function cachedAssistantResolver(
  resolver: AssistantResolver,
  notifications: Notifications,
  options: { ttlMs: number; logger: Logger },
): CachedAssistantResolver {
  const entries = new Map<string, { assistant: RunAssistant; at: number }>();
  let unlisten: (() => Promise<void>) | undefined;
  let listening = false;
  // Bumped by every change: a lookup that overlapped one may have read the old row, so it is not kept.
  let changes = 0;

  const drop = (assistantId: string) => {
    changes++;
    for (const [key, entry] of entries) if (entry.assistant.assistant_id === assistantId) entries.delete(key);
  };

  return {
    async start() {
      unlisten = await notifications.listen(ASSISTANT_CHANGES_CHANNEL, {
        onNotify: (assistantId) => drop(assistantId),
        onReconnect: () => {
          changes++;
          entries.clear();
        },
      });
      listening = true;
    },
    async stop() {
      listening = false;
      entries.clear();
      await unlisten?.().catch((err: unknown) => options.logger.warn({ err }, 'unlisten failed'));
    },
    async resolve(assistantIdOrGraphId) {
      const hit = entries.get(assistantIdOrGraphId);
      if (hit && Date.now() - hit.at < options.ttlMs) return hit.assistant;
      const before = changes;
      const assistant = await resolver.resolve(assistantIdOrGraphId);
      // Without the listener nothing would tell us about changes: don't keep anything then.
      if (listening && before === changes) entries.set(assistantIdOrGraphId, { assistant, at: Date.now() });
      return assistant;
    },
  };
}

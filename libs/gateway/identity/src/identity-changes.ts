import { type IdentityChange, IDENTITY_CHANGES_CHANNEL } from '@platform/gateway-data-access';

// What makes cached identity stale, and the channel the repository announces it on (with the repository).
export { type IdentityChange, IDENTITY_CHANGES_CHANNEL } from '@platform/gateway-data-access';

/** `reset`: changes may have been missed (the feed was cut); everything cached must go. */
export type IdentityChangeListener = (change: IdentityChange | 'reset') => void;

/** The changes other replicas make. */
export interface IdentityChangeFeed {
  /** Whether changes are being heard now; while not, nothing may be cached. */
  readonly live: boolean;
  subscribe(listener: IdentityChangeListener): void;
  close(): Promise<void>;
}

export function parseIdentityChange(payload: string | undefined): IdentityChange | undefined {
  try {
    const change = JSON.parse(payload ?? '') as Partial<IdentityChange>;
    if ((change.kind === 'api-key' || change.kind === 'session') && typeof change.id === 'string') return { kind: change.kind, id: change.id };
    if (change.kind === 'workspaces' && typeof change.organizationId === 'string') return { kind: 'workspaces', organizationId: change.organizationId };
  } catch {
    // not ours
  }
  return undefined;
}

/** LISTEN/NOTIFY as the gateway database offers it (Postgres or PGlite). */
export interface ChangeNotifications {
  listen(
    channel: string,
    handler: { onNotify(payload: string): void; onReconnect?(): void; onDisconnect?(): void },
  ): Promise<() => Promise<void>>;
}

/**
 * The feed of the gateway database's `NOTIFY`s on IDENTITY_CHANGES_CHANNEL: on Postgres the changes of every
 * replica; it is not live between a lost connection and its return.
 */
export async function listenForIdentityChanges(notifications: ChangeNotifications): Promise<IdentityChangeFeed> {
  const listeners: IdentityChangeListener[] = [];
  const emit = (change: IdentityChange | 'reset') => listeners.forEach((listener) => listener(change));
  let live = true;
  const unlisten = await notifications.listen(IDENTITY_CHANGES_CHANNEL, {
    onNotify: (payload) => {
      const change = parseIdentityChange(payload);
      if (change) emit(change);
    },
    onDisconnect: () => {
      live = false;
      emit('reset');
    },
    onReconnect: () => {
      live = true;
      emit('reset');
    },
  });
  return {
    get live() {
      return live;
    },
    subscribe: (listener) => void listeners.push(listener),
    close: () => unlisten(),
  };
}

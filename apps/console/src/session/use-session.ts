import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionApi } from '../api/session.api';
import type { BrowserSession } from '../api/types';

export const SESSION_KEY = ['session'] as const;

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: sessionApi.get, retry: false, staleTime: 60_000 });
}

/** The signed-in session (inside the session gate, it is always there). */
export function useCurrentSession(): BrowserSession {
  const { data } = useSession();
  if (!data) throw new Error('useCurrentSession outside the session gate');
  return data;
}

/** Everything but the session belongs to one workspace: dropped when the workspace or the session changes. */
function forgetWorkspaceData(client: ReturnType<typeof useQueryClient>) {
  client.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] });
}

/** A mutation answered with the new session (sign-in, workspace switch): it replaces the old one and its data. */
function useSessionChange<T>(mutationFn: (input: T) => Promise<BrowserSession>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (session) => {
      forgetWorkspaceData(client);
      client.setQueryData(SESSION_KEY, session);
    },
  });
}

export const useSignIn = () => useSessionChange(sessionApi.signIn);
export const usePickWorkspace = () => useSessionChange(sessionApi.pickWorkspace);

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: sessionApi.signOut,
    onSettled: () => {
      forgetWorkspaceData(client);
      // Back to "no session yet": the gate asks the gateway again, which answers 401, and shows the sign-in.
      void client.resetQueries({ queryKey: SESSION_KEY });
    },
  });
}

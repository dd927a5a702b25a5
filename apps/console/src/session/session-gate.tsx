import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { ApiError, onUnauthorized } from '../api/http';
import { AppLayout } from '../layout/app-layout';
import { ErrorState, Loading } from '../components/states';
import { SignInPage } from './sign-in-page';
import { SESSION_KEY, useSession } from './use-session';
import { WorkspacePickerPage } from './workspace-picker';

/** Sign-in until there is a session, the workspace picker until one is picked, then the console. */
export function SessionGate() {
  const session = useSession();
  const client = useQueryClient();
  // A 401 from any call (session expired, signed out elsewhere, key revoked): ask the gateway who we are again.
  useEffect(() => onUnauthorized(() => void client.invalidateQueries({ queryKey: SESSION_KEY })), [client]);

  if (session.isPending) return <Loading label="Checking your session…" />;
  if (session.error) {
    if (session.error instanceof ApiError && session.error.status === 401) return <SignInPage expired={client.getQueryState(SESSION_KEY)?.dataUpdateCount !== 0} />;
    return <ErrorState error={session.error} title="The gateway did not answer" />;
  }
  if (!session.data.workspace_id) return <WorkspacePickerPage />;
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}

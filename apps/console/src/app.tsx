import { Anchor } from '@mantine/core';
import { Link, Navigate, Route, Routes } from 'react-router';
import { Empty } from './components/states';
import { CreateDeploymentPage } from './deployments/create-deployment-page';
import { DeploymentPage } from './deployments/deployment-page';
import { DeploymentsPage } from './deployments/deployments-page';
import { ExportPage } from './exports/export-page';
import { ExportsPage } from './exports/exports-page';
import { OAuthCallbackPage } from './oauth/oauth-callback-page';
import { OAuthPage } from './oauth/oauth-page';
import { SessionGate } from './session/session-gate';
import { StudioPage } from './studio/studio-page';
import { ProjectsPage } from './traces/projects-page';
import { RunsPage } from './traces/runs-page';
import { TracePage } from './traces/trace-page';

/** Every page lives under /console (the gateway's other paths are the APIs); `/` opens the deployments. */
export function App() {
  return (
    <Routes>
      <Route path="/console/oauth/callback" element={<OAuthCallbackPage />} />
      <Route element={<SessionGate />}>
        <Route path="/" element={<Navigate to="/console/deployments" replace />} />
        <Route path="/console" element={<Navigate to="/console/deployments" replace />} />
        <Route path="/console/deployments" element={<DeploymentsPage />} />
        <Route path="/console/deployments/new" element={<CreateDeploymentPage />} />
        <Route path="/console/deployments/:deploymentId" element={<DeploymentPage />} />
        <Route path="/console/deployments/:deploymentId/studio" element={<StudioPage />} />
        <Route path="/console/traces" element={<ProjectsPage />} />
        <Route path="/console/traces/:projectId" element={<RunsPage />} />
        <Route path="/console/traces/:projectId/trace/:traceId" element={<TracePage />} />
        <Route path="/console/exports" element={<ExportsPage />} />
        <Route path="/console/exports/:exportId" element={<ExportPage />} />
        <Route path="/console/oauth" element={<OAuthPage />} />
        <Route
          path="*"
          element={
            <Empty action={<Anchor component={Link} to="/console/deployments">Go to deployments</Anchor>}>
              No such page.
            </Empty>
          }
        />
      </Route>
    </Routes>
  );
}

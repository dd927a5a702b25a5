import { deletedDeploymentId } from './deleted-deployment';

describe('deletedDeploymentId', () => {
  const id = '5C1D0E0A-0000-4000-8000-000000000001';
  it('names the deployment of a successful DELETE /v2/deployments/{id}', () => {
    expect(deletedDeploymentId('DELETE', `/v2/deployments/${id}`, 204)).toBe(id);
    expect(deletedDeploymentId('DELETE', `/v2/deployments/${id}/?x=1`, 204)).toBe(id);
  });
  it('ignores anything else', () => {
    expect(deletedDeploymentId('DELETE', `/v2/deployments/${id}`, 404)).toBeUndefined();
    expect(deletedDeploymentId('GET', `/v2/deployments/${id}`, 204)).toBeUndefined();
    expect(deletedDeploymentId('DELETE', `/v2/deployments/${id}/revisions/x`, 204)).toBeUndefined();
    expect(deletedDeploymentId('DELETE', undefined, 204)).toBeUndefined();
  });
});

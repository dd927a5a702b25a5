import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProtoDir, loadProtoPackage, serviceConstructor } from './proto-files';

describe('proto files', () => {
  it('finds the workspace proto/ directory above this lib', () => {
    expect(fs.existsSync(path.join(findProtoDir(), 'grpc/health/v1/health.proto'))).toBe(true);
  });

  it('says to set PROTO_DIR when there is none', () => {
    expect(() => findProtoDir(os.tmpdir())).toThrow(/PROTO_DIR/);
  });

  it('loads a file once and finds its services by full name', () => {
    const loaded = loadProtoPackage('export/v1/progress.proto');
    expect(loadProtoPackage('export/v1/progress.proto')).toBe(loaded);
    const Ctor = serviceConstructor(loaded, 'export.v1.ExportProgress');
    expect(Object.keys(Ctor.service)).toEqual(['ReportProgress', 'ReportFailure', 'GetRunCheckpoint']);
    expect(() => serviceConstructor(loaded, 'export.v1.Nope')).toThrow(/not found/);
  });
});

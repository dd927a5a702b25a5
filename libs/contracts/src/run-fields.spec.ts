import path from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_LOADER_OPTIONS, findProtoDir } from '@platform/grpc';
import { EXPORTABLE_RUN_FIELDS, JSON_RUN_FIELDS, TIMESTAMP_RUN_FIELDS, isExportableRunField } from './run-fields';

function runMessageFields(): string[] {
  const protoDir = findProtoDir();
  const definition = protoLoader.loadSync(path.join(protoDir, 'tracing/v1/runs.proto'), { ...PROTO_LOADER_OPTIONS, includeDirs: [protoDir] });
  const type = (definition['tracing.v1.Run'] as protoLoader.MessageTypeDefinition<object, object>).type as { field: { name: string }[] };
  return type.field.map((f) => f.name);
}

describe('run fields', () => {
  it('lists every exportable field of the spec once, each a field of the Run message', () => {
    const fields = runMessageFields();
    expect(new Set(EXPORTABLE_RUN_FIELDS).size).toBe(EXPORTABLE_RUN_FIELDS.length);
    expect(EXPORTABLE_RUN_FIELDS).toHaveLength(29);
    for (const name of [...EXPORTABLE_RUN_FIELDS, ...JSON_RUN_FIELDS, ...TIMESTAMP_RUN_FIELDS]) expect(fields).toContain(name);
  });

  it('has no Run field that is neither exportable nor deliberately extra', () => {
    const extra = runMessageFields().filter((name) => !isExportableRunField(name));
    expect(extra).toEqual(['serialized']);
  });
});

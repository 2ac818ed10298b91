import { DOCUMENT_KINDS } from '@cfdi/services';
import { DOCUMENT_FACES } from '../src/kinds/kinds';
import { MCP_TOOLS } from '../src/mcp/tools';
import { startApi, type ApiHarness } from './harness';

// The registry is the only place document routes and tools come from: every kind the services declare has one create
// face, and each face shows up as REST operations (OpenAPI) and MCP tools.
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

describe('document kinds declared once', () => {
  const faces = DOCUMENT_FACES.flatMap(({ kinds }) => kinds);

  it('gives every services kind exactly one API face, and each face its services kind', () => {
    expect(faces.map((f) => f.kind.name).sort()).toEqual(Object.keys(DOCUMENT_KINDS).sort());
    for (const face of faces) expect(face.kind).toBe(DOCUMENT_KINDS[face.kind.name]);
  });

  it('makes the REST operations and MCP tools of every kind and resource from its declaration', async () => {
    const { body: openapi } = await api.request('GET', '/v1/openapi.json');
    const operationIds = Object.values(
      openapi.paths as Record<string, Record<string, { operationId: string }>>,
    )
      .flatMap((methods) => Object.values(methods))
      .map((op) => op.operationId);
    const tools = MCP_TOOLS.map((t) => t.name);
    for (const face of DOCUMENT_FACES) {
      const { resource, kinds } = face;
      const texts = [resource.retrieve, resource.list, resource.cancel, ...kinds.map((k) => k.create)];
      for (const { operationId } of texts) expect(operationIds).toContain(operationId);
      // A resource without tools (a face declared REST-only) has REST operations only.
      const faceTools = face.tools
        ? [
            face.resource.retrieve,
            face.resource.list,
            face.resource.cancel,
            ...face.kinds.map((k) => k.create),
          ]
        : [];
      for (const { tool } of faceTools) expect(tools).toContain(tool.name);
      if (!face.tools) expect(tools.filter((name) => name.includes(resource.type))).toEqual([]);
      expect(openapi.paths[`/v1${resource.path}`]?.get?.operationId).toBe(resource.list.operationId);
      expect(openapi.paths[`/v1${resource.path}/{id}/cancel`]?.post?.operationId).toBe(
        resource.cancel.operationId,
      );
    }
    for (const kind of faces)
      expect(openapi.paths[`/v1${kind.path.replace(':id', '{id}')}`]?.post?.operationId).toBe(
        kind.create.operationId,
      );
  });
});

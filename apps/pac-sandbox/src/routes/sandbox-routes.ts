import type { FastifyInstance } from 'fastify';
import type { CancelService } from '../cancellation/cancel-service';
import {
  FAULT_KINDS,
  FAULT_OPERATIONS,
  type FaultKind,
  type FaultOperation,
  type FaultParams,
  type FaultRegistry,
} from '../faults/fault-registry';
import type { SatCredentials } from '../sat/sat-credentials';

const faultSchema = {
  type: 'object',
  required: ['operation', 'kind'],
  additionalProperties: false,
  properties: {
    operation: { type: 'string', enum: [...FAULT_OPERATIONS] },
    kind: { type: 'string', enum: [...FAULT_KINDS] },
    count: { type: 'integer', minimum: 1, maximum: 10_000, default: 1 },
    params: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ms: { type: 'integer', minimum: 0, maximum: 600_000 },
        code: { type: 'string', pattern: '^[A-Z0-9]{3,12}$' },
        message: { type: 'string', maxLength: 500 },
      },
    },
  },
} as const;

interface FaultBody {
  operation: FaultOperation;
  kind: FaultKind;
  count: number;
  params?: FaultParams;
}

/**
 * Sandbox-only JSON control API (no Finkok equivalent): fault injection, the receiver's answer to
 * a cancellation request, and the SAT stand-in certificate that verifies SelloSAT and acuses.
 */
export function registerSandboxRoutes(
  app: FastifyInstance,
  deps: {
    faults: FaultRegistry;
    cancelService: CancelService;
    sat: SatCredentials;
    noCertificadoSat: string;
  },
): void {
  app.post<{ Body: FaultBody }>(
    '/sandbox/faults',
    { schema: { body: faultSchema } },
    async (request, reply) => {
      const { operation, kind, count, params } = request.body;
      return reply.code(201).send(deps.faults.add({ operation, kind, count, ...(params ? { params } : {}) }));
    },
  );
  app.get('/sandbox/faults', async () => ({ faults: deps.faults.list() }));
  app.delete('/sandbox/faults', async (_request, reply) => {
    deps.faults.clear();
    return reply.code(204).send();
  });

  app.post<{ Params: { uuid: string; answer: 'accept' | 'reject' } }>(
    '/sandbox/receiver/:uuid/:answer',
    {
      schema: {
        params: {
          type: 'object',
          required: ['uuid', 'answer'],
          properties: {
            uuid: { type: 'string', pattern: '^[0-9A-Fa-f-]{36}$' },
            answer: { type: 'string', enum: ['accept', 'reject'] },
          },
        },
      },
    },
    async (request, reply) => {
      const result = await deps.cancelService.answer(request.params.uuid, request.params.answer);
      if (!result.ok) return reply.code(409).send({ code: result.code, message: result.message });
      return { code: '1000', uuid: result.uuid, ...result.status };
    },
  );

  app.get('/sandbox/sat-certificate', async () => ({
    noCertificado: deps.noCertificadoSat,
    certificate: deps.sat.certificateDer.toString('base64'),
  }));
}

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Scope } from '@cfdi/services';
import type { AppDeps } from '../deps';
import { runIdempotent, type Answer } from '../operations/idempotent';
import { idempotencyKeyOf, sendAnswer } from '../routes/send-answer';
import { IdParamsSchema, ListSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema } from '../schemas/documents';
import type { FaceTexts } from '../kinds/declaration';
import type { RecordCallContext, RecordResource } from './declaration';
import { RECORDS } from './records';

/** What record services need, with a fresh EntityManager per call (REST request or MCP tool call). */
export const recordContext = (deps: AppDeps): RecordCallContext => ({
  em: deps.orm.em.fork(),
  catalogs: deps.catalogs,
  portalUrl: deps.config.api.portalUrl,
});

/** A list query as the services take it: `starting_after` becomes `startingAfter`. */
export function listQueryOf(query: Record<string, unknown>): never {
  const { starting_after: startingAfter, ...rest } = query;
  return { ...rest, ...(startingAfter === undefined ? {} : { startingAfter }) } as never;
}

/**
 * Creates a record; one created under an Idempotency-Key runs once per key (a retry gets the first answer, a crashed
 * attempt's record is answered rather than made twice). `operation` is the REST route, shared by the MCP tool.
 */
export async function createRecord(
  deps: AppDeps,
  scope: Scope,
  record: RecordResource,
  body: unknown,
  key: string | null,
): Promise<Answer> {
  const { services } = record;
  if (key === null)
    return { status: 201, body: await services.create(recordContext(deps), scope, body as never) };
  return runIdempotent(
    deps,
    scope,
    key,
    `POST /v1${record.path}`,
    body,
    async (claimed) => ({
      status: 201,
      body: await services.create(recordContext(deps), scope, body as never, claimed),
    }),
    async (id) => ({ status: 201, body: await services.retrieve(recordContext(deps), scope, id) }),
  );
}

/** Every record's routes: create, list, retrieve, and update, delete or its actions as it declares. */
export const recordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const record of RECORDS) await app.register(routesOf(record as RecordResource));
};

const texts = (record: RecordResource, face: Omit<FaceTexts, 'tool'>) => ({
  tags: [record.tag],
  operationId: face.operationId,
  summary: face.summary,
  description: face.description,
});

function routesOf(record: RecordResource): FastifyPluginAsyncTypebox {
  return async (app) => {
    const deps = app.deps;
    const { services } = record;
    const one = `${record.path}/:id`;
    const scopeOf = (request: { scope: Scope }) => request.scope;
    const idempotent = record.idempotentCreate === true;

    app.post(
      record.path,
      {
        schema: {
          ...texts(record, record.create),
          ...(idempotent ? { headers: IdempotencyHeadersSchema } : {}),
          body: record.createBody,
          response: {
            201: record.schema,
            ...problemResponses(400, 403, ...(idempotent ? [404, 409, 422] : (record.conflicts ?? []))),
          },
        },
      },
      async (request, reply) =>
        sendAnswer(
          reply,
          await createRecord(
            deps,
            scopeOf(request),
            record,
            request.body,
            idempotent ? idempotencyKeyOf(request) : null,
          ),
        ),
    );

    app.get(
      record.path,
      {
        schema: {
          ...texts(record, record.list),
          querystring: record.listQuery,
          response: { 200: ListSchema(record.schema), ...problemResponses(400) },
        },
      },
      async (request) =>
        (await services.list(
          recordContext(deps),
          scopeOf(request),
          listQueryOf(request.query as Record<string, unknown>),
        )) as never,
    );

    app.get(
      one,
      {
        schema: {
          ...texts(record, record.retrieve),
          params: IdParamsSchema,
          response: { 200: record.schema, ...problemResponses(404) },
        },
      },
      async (request) =>
        (await services.retrieve(recordContext(deps), scopeOf(request), request.params.id)) as never,
    );

    const { update, updateBody, del, deleted } = record;
    if (update && updateBody && services.update) {
      const change = services.update;
      app.patch(
        one,
        {
          schema: {
            ...texts(record, update),
            params: IdParamsSchema,
            body: updateBody,
            response: { 200: record.schema, ...problemResponses(404, ...(record.conflicts ?? [])) },
          },
        },
        async (request) =>
          (await change(
            recordContext(deps),
            scopeOf(request),
            request.params.id,
            request.body as never,
          )) as never,
      );
    }

    if (del && deleted && services.del) {
      const remove = services.del;
      app.delete(
        one,
        {
          schema: {
            ...texts(record, del),
            params: IdParamsSchema,
            response: { 200: deleted, ...problemResponses(404) },
          },
        },
        async (request) => remove(recordContext(deps), scopeOf(request), request.params.id),
      );
    }

    for (const action of record.actions ?? [])
      app.post(
        `${one}/${action.verb}`,
        {
          schema: {
            ...texts(record, action),
            params: IdParamsSchema,
            response: { 200: record.schema, ...problemResponses(404, ...action.conflicts) },
          },
        },
        async (request) =>
          (await action.run(recordContext(deps), scopeOf(request), request.params.id)) as never,
      );
  };
}

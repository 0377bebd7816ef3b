import { loadSchemas } from '../harness/contracts/contracts.ts';

/** Where the reference implementation publishes its OpenAPI description, as Unleash does. */
export const DESCRIPTION_PATH = '/docs/openapi.json';

type Json = unknown;

const componentOf = (file: string) => file.replace(/\.schema\.json$/, '');

/** A contract as an OpenAPI 3.1 component: its references point into the components, the suite's annotations left out. */
function asComponent(node: Json): Json {
  if (Array.isArray(node)) return node.map(asComponent);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]): [string, Json][] => {
      if (key === '$id' || key === '$schema' || key === 'clauses') return [];
      if (key === '$ref') return [[key, `#/components/schemas/${componentOf(String(value))}`]];
      return [[key, asComponent(value)]];
    }),
  );
}

function operation(summary: string, component: string, parameters: Json[] = []): Json {
  const error = { description: 'the error object', content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } } };
  return {
    get: {
      summary,
      parameters,
      responses: {
        200: { description: summary, content: { 'application/json': { schema: { $ref: `#/components/schemas/${component}` } } } },
        401: error,
        403: error,
      },
    },
  };
}

/** The reference implementation's own description of both operations, made from the contracts: faithful by construction. */
export function referenceDescription(): Json {
  const components = Object.fromEntries([...loadSchemas()].map(([file, schema]) => [componentOf(file), asComponent(schema)]));
  return {
    openapi: '3.1.0',
    info: { title: 'Admin API reference implementation', version: '1' },
    paths: {
      '/api/admin/invite-link/tokens/{token}': operation('Retrieve a signup token', 'public-signup-token', [
        { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
      ]),
      '/api/admin/projects': operation('List all projects', 'projects'),
    },
    components: { schemas: components },
  };
}

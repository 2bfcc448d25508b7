/**
 * OpenAPI operations of org and key administration (src/orgs/routes.ts, issue 17): the platform
 * operator's `/api/admin/*` (`platform:admin`) and a tenant admin's own `/api/keys` (`admin`).
 */
import {
  CreatedOrgSchema,
  CreateKeyBody,
  CreateOrgBody,
  CreateOwnKeyBody,
  IssuedKeySchema,
  KeyListQuery,
  OwnKeyListQuery,
  KeyListSchema,
  OrgListSchema,
  RevokedKeySchema,
  RevokeKeyBody,
} from '../orgs/contract.js';
import type { OperationSpec } from './operations.js';

export function keyAdminOperations(): OperationSpec[] {
  const A = { access: 'admin', scope: 'platform:admin', tag: 'Administration' } as const;
  const T = { access: 'project', scope: 'admin', tag: 'Administration' } as const;
  const issued = {
    status: 201,
    description: 'The key and its signing secret: shown in this answer only, never again.',
    json: { name: 'IssuedKey', schema: IssuedKeySchema },
  };
  const revoked = {
    status: 200,
    description: 'Revoked; every node refuses the key within the documented bound (docs/production.md).',
    json: { name: 'RevokedKey', schema: RevokedKeySchema },
  };
  const keys = { status: 200, description: 'OK', json: { name: 'KeyList', schema: KeyListSchema } };
  return [
    {
      ...A,
      method: 'GET',
      path: '/api/admin/orgs',
      operationId: 'adminListOrgs',
      summary: 'Every organization (platform operator only)',
      response: { status: 200, description: 'OK', json: { name: 'OrgList', schema: OrgListSchema } },
    },
    {
      ...A,
      method: 'POST',
      path: '/api/admin/orgs',
      operationId: 'adminCreateOrg',
      summary: 'Register an organization (platform operator only)',
      body: { name: 'CreateOrgBody', schema: CreateOrgBody, required: true },
      appends: true,
      response: {
        status: 201,
        description: 'Registered.',
        json: { name: 'CreatedOrg', schema: CreatedOrgSchema },
      },
    },
    {
      ...A,
      method: 'GET',
      path: '/api/admin/keys',
      operationId: 'adminListKeys',
      summary: "Every org's keys, or one org's (platform operator only; never a digest or secret)",
      query: KeyListQuery,
      response: keys,
    },
    {
      ...A,
      method: 'POST',
      path: '/api/admin/keys',
      operationId: 'adminCreateKey',
      summary: 'Issue a key to an organization (platform scopes only to the operator org)',
      body: { name: 'CreateKeyBody', schema: CreateKeyBody, required: true },
      appends: true,
      response: issued,
      errors: ['NOT_FOUND', 'FORBIDDEN'],
    },
    {
      ...A,
      method: 'POST',
      path: '/api/admin/keys/:id/revoke',
      operationId: 'adminRevokeKey',
      summary: 'Revoke any key (platform operator only)',
      body: { name: 'RevokeKeyBody', schema: RevokeKeyBody, required: false },
      appends: true,
      response: revoked,
      errors: ['NOT_FOUND'],
    },
    {
      ...T,
      method: 'GET',
      path: '/api/keys',
      operationId: 'listOwnKeys',
      summary: "The caller's org's keys (never a digest or secret)",
      query: OwnKeyListQuery,
      response: keys,
    },
    {
      ...T,
      method: 'POST',
      path: '/api/keys',
      operationId: 'createOwnKey',
      summary: "Issue a key to the caller's own org, with scopes the caller holds",
      body: { name: 'CreateOwnKeyBody', schema: CreateOwnKeyBody, required: true },
      appends: true,
      response: issued,
      errors: ['FORBIDDEN'],
    },
    {
      ...T,
      method: 'POST',
      path: '/api/keys/:id/revoke',
      operationId: 'revokeOwnKey',
      summary: "Revoke one of the caller's org's keys (another org's key answers 404)",
      body: { name: 'RevokeKeyBody', schema: RevokeKeyBody, required: false },
      appends: true,
      response: revoked,
      errors: ['NOT_FOUND'],
    },
  ];
}

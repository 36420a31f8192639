// Transfers (tenant: POST is signed and idempotent), the dealer funding desk (/broker/v1/funding,
// X-Console-Key with funding:read / funding:approve) and the manual-funding sandbox control.
// Creating the service registers the transfer rail step with the scheduler.
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { defineRoute, type RouteDef } from '../contract/route.js';
import { createFundingService, type FundingService } from './service.js';
import {
  DeskListQuery,
  DeskTransferSchema,
  ManualFundingBody,
  RejectBody,
  TransferCreateBody,
  TransferList,
  TransferListQuery,
  TransferParams,
  TransferSchema,
} from '../contract/schemas/funding.js';

export function fundingRoutes(deps: Deps): RouteDef[] {
  const funding = createFundingService(deps);

  return [...transferRoutes(funding), ...deskFundingRoutes(funding), ...manualFundingRoutes(funding)];
}

function transferRoutes(funding: FundingService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/transfers',
      auth: 'S',
      tags: ['transfers'],
      status: 201,
      summary:
        'Deposit or withdraw cash. Deposits credit settled cash on completion; withdrawals hold settled cash ' +
        'at once. Limits: 70,000 EGP per transfer, 200,000 EGP per investor per Cairo day.',
      body: TransferCreateBody,
      response: TransferSchema,
      issueCode: (path, _where, issue) =>
        path[0] === 'amount_micros' && issue.code === 'too_big' ? 'AMOUNT_TOO_LARGE' : undefined,
      errors: [
        'VALIDATION_FAILED',
        'AMOUNT_TOO_LARGE',
        'NOT_FOUND',
        'INVESTOR_NOT_APPROVED',
        'INVESTOR_CLOSED',
        'TRANSFER_LIMIT_EXCEEDED',
        'DAILY_TRANSFER_LIMIT_EXCEEDED',
        'INSUFFICIENT_SETTLED_CASH',
      ],
      handler: ({ body, tenantId }) => funding.create(tenantId!, body),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/transfers',
      auth: 'B',
      tags: ['transfers'],
      summary:
        'Transfers of the tenant, newest first; filter by investor_id and state; limit 1-200 (default 100), ' +
        'before = a transfer id.',
      query: TransferListQuery,
      response: TransferList,
      errors: ['NOT_FOUND', 'INVALID_CURSOR'],
      handler: ({ query, tenantId }) => funding.list(tenantId!, query),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/transfers/:id',
      auth: 'B',
      tags: ['transfers'],
      summary: 'One transfer; poll it to follow its state.',
      params: TransferParams,
      response: TransferSchema,
      errors: ['NOT_FOUND'],
      handler: ({ params, tenantId }) => funding.get(tenantId!, params.id),
    }),
  ];
}

function deskFundingRoutes(funding: FundingService): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      url: '/broker/v1/funding',
      auth: { realm: 'console', grant: 'funding:read' },
      tags: ['desk'],
      summary:
        "Transfers of the dealer's broker, newest first; by default those waiting for a funding decision " +
        '(approval=pending).',
      query: DeskListQuery,
      response: z.object({ funding: z.array(DeskTransferSchema) }),
      handler: ({ query, operator }) => funding.deskList(operator!, query),
    }),
    defineRoute({
      method: 'POST',
      url: '/broker/v1/funding/:id/approve',
      auth: { realm: 'console', grant: 'funding:approve' },
      tags: ['desk'],
      summary: 'Approve a transfer waiting for a funding decision; its rail steps start one simulated minute later.',
      params: TransferParams,
      response: DeskTransferSchema,
      errors: ['NOT_FOUND', 'TRANSFER_NOT_PENDING_APPROVAL'],
      handler: ({ params, operator }) => funding.approve(operator!, params.id),
    }),
    defineRoute({
      method: 'POST',
      url: '/broker/v1/funding/:id/reject',
      auth: { realm: 'console', grant: 'funding:approve' },
      tags: ['desk'],
      summary:
        'Reject a transfer waiting for a funding decision: it fails with the reason_code and a withdrawal hold ' +
        'is released.',
      params: TransferParams,
      body: RejectBody,
      response: DeskTransferSchema,
      issueCode: (path) => (path[0] === 'reason_code' ? 'INVALID_FUNDING_REASON' : undefined),
      errors: ['NOT_FOUND', 'TRANSFER_NOT_PENDING_APPROVAL', 'INVALID_FUNDING_REASON'],
      handler: ({ params, body, operator }) => funding.reject(operator!, params.id, body.reason_code),
    }),
  ];
}

function manualFundingRoutes(funding: FundingService): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      url: '/admin/sandbox/manual-funding',
      auth: { realm: 'admin', grant: 'sandbox:control' },
      tags: ['sandbox'],
      summary:
        'Switch manual funding approval: when on, new transfers wait in received (approval pending) for the ' +
        'dealer desk.',
      body: ManualFundingBody,
      response: z.object({ manual_funding: z.boolean() }),
      handler: ({ body }) => funding.setManualFunding(body.enabled),
    }),
  ];
}

import { backOfficeAccessEndpoints } from '@meridian/contracts/back-office';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

export type CreateOperatorInput = z.input<typeof backOfficeAccessEndpoints.createOperator.body>;
export type UpdateOperatorInput = z.input<typeof backOfficeAccessEndpoints.updateOperator.body>;

/** `GET admin/operators`: every operator (admin only). */
export function listOperators() {
  return adminFetch(backOfficeAccessEndpoints.listOperators, {});
}

/** `POST admin/operators`: the new operator and its temporary password, answered once. */
export async function createOperator(body: CreateOperatorInput) {
  return unwrap(await adminCall(backOfficeAccessEndpoints.createOperator, { body }, { quietSuccess: true }));
}

/** `PATCH admin/operators/:id`: change the role, deactivate or reactivate, or reset the authenticator. */
export async function updateOperator(input: { id: number; change: UpdateOperatorInput }) {
  const { id, change } = input;
  return unwrap(await adminCall(backOfficeAccessEndpoints.updateOperator, { params: { id }, body: change }));
}

/** The operators table. */
export function useOperators() {
  return useQuery({ queryKey: adminKeys.operators, queryFn: listOperators });
}

/** Create mutation of the operators page. */
export function useCreateOperator() {
  return useAdminMutation(createOperator, [adminKeys.operators]);
}

/** Update mutation of the operators page. */
export function useUpdateOperator() {
  return useAdminMutation(updateOperator, [adminKeys.operators]);
}

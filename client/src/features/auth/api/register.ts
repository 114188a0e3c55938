import { useMutation } from '@tanstack/react-query';
import type { ApiBody } from '@shared/api';
import { api } from '../../../lib/api';

export type RegisterPayload = ApiBody<'POST /api/user/register/'>;

/** POST /api/user/register/ → 201 */
export const register = (payload: RegisterPayload) =>
  api('POST /api/user/register/', { body: payload });

export const useRegister = () => useMutation({ mutationFn: register });

import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** POST /api/password-reset/ {email} — always 200 (never says whether the account exists). */
export const requestPasswordReset = (email: string) =>
  api('POST /api/password-reset/', { body: { email } });

/** POST /api/password-reset/confirm/ {token, password} */
export const confirmPasswordReset = (token: string, password: string) =>
  api('POST /api/password-reset/confirm/', { body: { token, password } });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });

export const useConfirmPasswordReset = () =>
  useMutation({ mutationFn: (v: { token: string; password: string }) => confirmPasswordReset(v.token, v.password) });

import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** POST /api/login/ */
export const login = (email: string, password: string) =>
  api('POST /api/login/', { body: { email, password } });

/** POST /api/verify/resend/ */
export const resendVerification = (email: string) =>
  api('POST /api/verify/resend/', { body: { email } });

export const useLogin = () => useMutation({ mutationFn: (v: { email: string; password: string }) => login(v.email, v.password) });

export const useResendVerification = () => useMutation({ mutationFn: resendVerification });

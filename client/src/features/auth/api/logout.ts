import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';

/** POST /api/logout/ */
export const logout = () => apiFetch<{ detail?: string }>('/api/logout/', { method: 'POST' });

/**
 * The call only: the caller clears the cached session (clearAuth) once it has left any protected page,
 * so a protected route does not bounce the user to /login on the way to /aukcije.
 */
export const useLogout = () => useMutation({ mutationFn: logout });

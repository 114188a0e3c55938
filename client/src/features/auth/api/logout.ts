import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { setLoggingOut } from '../session-end';

/** POST /api/logout/ */
export const logout = () => api('POST /api/logout/');

/**
 * The call only: the caller clears the cached session (clearAuth) once it has left any protected page,
 * so a protected route does not bounce the user to /login on the way to /aukcije. The live socket hears
 * `session:ended` for this logout; it is marked as expected so it does not count as an ended session.
 */
export const useLogout = () =>
  useMutation({
    mutationFn: () => {
      setLoggingOut(true);
      return logout();
    },
    onError: () => setLoggingOut(false),
  });

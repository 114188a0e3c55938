import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { reconnectSocket } from '../../../lib/socket';

/** POST /api/change-password/ {old_password, new_password} */
export const changePassword = (old_password: string, new_password: string) =>
  api('POST /api/change-password/', { body: { old_password, new_password } });

export const useChangePassword = () =>
  useMutation({
    mutationFn: (v: { old: string; next: string }) => changePassword(v.old, v.next),
    // The session id changed: the live socket needs a new handshake to stay in user:{id} (socket contract §1).
    onSuccess: () => reconnectSocket(),
  });

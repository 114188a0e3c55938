import type { User } from '../../db/types';
import type { AdminUser } from '@shared/schemas/accounts';

export function presentAdminUser(u: User): AdminUser {
  return {
    id: u.id,
    first_name: u.first_name,
    email: u.email,
    is_verified: !!u.verified_at,
    is_superuser: !!u.is_admin,
    is_blocked: !!u.blocked_at,
    created_at: u.created_at,
  };
}

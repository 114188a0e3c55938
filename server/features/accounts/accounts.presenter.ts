import type { User } from '../../db/types';
import type { CurrentUserData } from '@shared/schemas/accounts';

export function presentCurrentUser(u: User): CurrentUserData {
  return {
    id: u.id,
    first_name: u.first_name,
    phone_number: u.phone_number,
    city: u.city,
    email: u.email,
    is_superuser: !!u.is_admin,
    is_verified: !!u.verified_at,
  };
}

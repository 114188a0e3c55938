import type { User } from '../../db/types';
import type { CurrentUserData, LoginResponse } from '@shared/schemas/accounts';
import { srv } from '@shared/texts/server';

export function presentCurrentUser(u: User): CurrentUserData {
  return {
    id: u.id,
    first_name: u.first_name,
    phone_number: u.phone_number,
    city: u.city,
    email: u.email,
    is_superuser: !!u.is_admin,
    is_verified: !!u.verified_at,
    has_password: !!u.password_hash,
  };
}

/** The login answer: admins are sent to their dashboard (spec §4 Login). */
export function presentLogin(u: User): LoginResponse {
  return { detail: srv.loggedIn, ...(u.is_admin ? { redirect_url: '/admin/dashboard' } : {}) };
}

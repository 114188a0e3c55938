import type { AppContext } from '../../context';
import { userChanged } from '../../events';
import { grantAdmins } from './accounts.repository';

/** ADMIN_EMAILS get the admin role at every start (and at registration / first Google sign-in). */
export async function applyAdminEmails(ctx: AppContext): Promise<void> {
  await grantAdmins(ctx.db, ctx.config.adminEmails);
  // Other nodes may hold these users without the role.
  if (ctx.config.adminEmails.length) await ctx.events.publish(userChanged());
}

/** Request URLs for the log: verification codes and OAuth/reset secrets never reach it. */
export function redactUrl(url: string): string {
  return url
    .replace(/(\/api\/verify\/)[^/?]+/, '$1[redacted]')
    .replace(/([?&](?:code|state|token|id_token|access_token)=)[^&]*/g, '$1[redacted]');
}

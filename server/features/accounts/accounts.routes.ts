import { Router } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { parse } from '../../http/validate';
import { LoginInput, RegisterInput } from '@shared/schemas/accounts';
import { authenticate, registerUser } from './accounts.service';
import { presentCurrentUser } from './accounts.presenter';
import { loginSession, logoutSession } from './session-helpers';

export function accountsRoutes(ctx: AppContext): Router {
  const r = Router();

  r.post('/user/register/', async (req, res) => {
    const input = parse(RegisterInput, req.body);
    await registerUser(ctx, input);
    res.status(201).json({ detail: 'Registracija je uspela. Proverite vaš email.', email: input.email });
  });

  r.post('/login/', async (req, res) => {
    const input = parse(LoginInput, req.body);
    const user = await authenticate(ctx, input);
    await loginSession(ctx, req, res, user);
    res.json({ detail: 'Uspesno ste se ulogovali!', ...(user.is_admin ? { redirect_url: '/admin/dashboard' } : {}) });
  });

  r.post('/logout/', async (req, res) => {
    const userId = req.user?.id;
    await logoutSession(req, res);
    if (userId) ctx.realtime.dropUser(userId);
    res.json({ detail: 'Uspešno ste se odjavili.' });
  });

  r.get('/user/status/', (req, res) => {
    res.json({ is_authenticated: !!req.user, username: req.user?.first_name ?? null });
  });

  r.get('/username/', requireAuth, (req, res) => {
    res.json({ username: currentUser(req).first_name });
  });

  r.get('/current_user_data/', requireAuth, (req, res) => {
    res.json(presentCurrentUser(currentUser(req)));
  });

  return r;
}

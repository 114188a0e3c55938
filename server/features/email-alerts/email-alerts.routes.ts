import { Router, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../../context';
import { currentUser, requireAuth } from '../../http/auth';
import { AppError } from '../../http/errors';
import { parse } from '../../http/validate';
import { escapeHtml } from '@shared/texts/html';
import { simplePage, unsubscribeTexts as t } from '@shared/texts/email-alerts';
import { NotificationSettingsInput, OneClickInput, type UnsubscribeResponse } from '@shared/schemas/notification-settings';
import { getNotificationSettings, unsubscribe, updateNotificationSettings } from './email-alerts.service';
import { appUnsubscribeTokens } from './email-alerts.worker';

/** GET/PUT /api/notification-settings/: the member's own e-mail settings (in-app notifications are always on). */
export function notificationSettingsRoutes(ctx: AppContext): Router {
  const r = Router();
  r.get('/notification-settings/', requireAuth, async (req, res) => {
    res.json(await getNotificationSettings(ctx.db, currentUser(req).id));
  });
  r.put('/notification-settings/', requireAuth, async (req, res) => {
    const input = parse(NotificationSettingsInput, req.body);
    res.json(await updateNotificationSettings(ctx.db, currentUser(req).id, input));
  });
  return r;
}

/** multipart/form-data bodies (RFC 8058 allows them): fields only, small, parsed by multer loaded on first use. */
let multipart: Promise<RequestHandler> | undefined;
const formFields: RequestHandler = async (req, res, next) => {
  if (!req.is('multipart/form-data')) return next();
  const parseFields = await (multipart ??= import('multer').then(({ default: multer }) => multer({ limits: { fields: 5, fieldSize: 200, files: 0, parts: 5 } }).none()));
  parseFields(req, res, (err: unknown) => next(err ? AppError.badRequest(t.invalid, undefined, 'bad_form') : undefined));
};

function page(res: Response, status: number, title: string, body: string) {
  res.status(status).type('html').send(simplePage(title, body));
}

/**
 * RFC 8058 one-click unsubscribe, mounted before the CSRF check (features/index.ts csrfExemptRoutes): the signed
 * token names the member and the kind and is the whole authorisation. GET only shows a page whose button POSTs
 * (a link scanner's GET changes nothing); POST with `List-Unsubscribe=One-Click` turns the kind off.
 */
export function unsubscribeRoutes(ctx: AppContext): Router {
  const r = Router();
  const tokens = appUnsubscribeTokens(ctx);
  const settingsLink = `<p><a href="/podesavanja-obavestenja">${escapeHtml(t.settingsLink)}</a></p>`;

  r.get('/unsubscribe/:token/', (req, res) => {
    const target = tokens.verify(req.params.token);
    // Every error is JSON (design.md §5), this one too: only a tampered link gets here.
    if (!target) throw AppError.badRequest(t.invalid, undefined, 'bad_token');
    const form =
      `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
      `<button type="submit" style="font-size:1rem;padding:0.5rem 1rem">${escapeHtml(t.button)}</button></form>`;
    page(res, 200, t.title, `<p>${escapeHtml(t.question(target.kind))}</p>${form}`);
  });

  r.post('/unsubscribe/:token/', formFields, async (req, res) => {
    const target = tokens.verify(req.params.token);
    if (!target) throw AppError.badRequest(t.invalid, undefined, 'bad_token');
    if (!OneClickInput.safeParse(req.body ?? {}).success) throw AppError.badRequest(t.badBody, undefined, 'bad_form');
    await unsubscribe(ctx.db, target.userId, target.kind);
    if (req.accepts(['json', 'html']) === 'html') return page(res, 200, t.title, `<p>${escapeHtml(t.done(target.kind))}</p>${settingsLink}`);
    const body: UnsubscribeResponse = { kind: target.kind, email: false };
    res.json(body);
  });
  return r;
}
